/** The options every `svcctl mcp …` subcommand shares (which entry in which file, and everything that decides its
 * content), so a flag means the same thing everywhere. Its own module: the subcommand wirings all point here. */
import { type Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { DEFAULT_SERVER_NAME, MCP_SERVER_PACKAGE } from '../core/constants.js';
import {
  AUTH_METHODS,
  CLIENT_IDS,
  GENERIC_FORMATS,
  MODES,
  PASTE_SHELLS,
  NAME_PATTERN,
  SCOPES,
  SECRETS_HOW,
  TOKEN_HOW,
} from '../mcp/types.js';
import { typedSpecProblem } from '../mcp/install/package-spec.js';
import { collect, rejectPasswordFlag } from './parsers.js';

export function serverName(value: string): string {
  if (!NAME_PATTERN.test(value)) {
    throw new InvalidArgumentError("letters, digits, '-' and '_', first a letter");
  }
  return value;
}

/** --client (repeatable), --name, --scope, --project-dir, --config, --format: which entry in which file. */
export function addTargetOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--client <id>', 'client (repeatable)').choices(CLIENT_IDS).argParser(collect))
    .addOption(new Option('--name <name>', `server name (default: ${DEFAULT_SERVER_NAME})`).argParser(serverName))
    .addOption(new Option('--scope <s>', 'user (default) | project | local, where the client has them').choices(SCOPES))
    .option(
      '--project-dir <dir>',
      'the project for project/local scope (default: the root of the git work tree holding the current directory, else that directory)',
    )
    .option('--config <path>', "use this file instead of the client's own")
    .addOption(
      new Option('--format <f>', 'with --config and no --client: mcpServers | servers | toml').choices(GENERIC_FORMATS),
    );
}

/** `--package`: any spec npx takes as a package, never one it would read as an option. */
function packageSpec(value: string): string {
  const problem = typedSpecProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

/** Everything that decides the entry's content, plus the sources of literal values. */
export function addEntryOptions(cmd: Command): Command {
  return rejectPasswordFlag(addTargetOptions(cmd))
    .addOption(new Option('--mode <m>', 'local (default) | remote | proxy').choices(MODES))
    .addOption(new Option('--auth <a>', 'password (default) | bearer (remote and proxy)').choices(AUTH_METHODS))
    .addOption(
      new Option('--package <spec>', `local mode package (default: ${MCP_SERVER_PACKAGE})`).argParser(packageSpec),
    )
    .addOption(
      new Option(
        '--secrets <how>',
        'ref (default where the client expands variables) | literal | prompt (VS Code and Visual Studio inputs)',
      ).choices(SECRETS_HOW),
    )
    .option('--email <e>', 'email for literal values (else SERVICE_EMAIL, else a prompt)')
    .option('--password-stdin', 'read the password for literal values from stdin')
    .option('--password-file <file>', 'read the password for literal values from a file')
    .addOption(
      new Option(
        '--token <how>',
        'with --auth bearer: helper (svcctl hands out a fresh token; the default after svcctl login --save --remember-password) | static',
      ).choices(TOKEN_HOW),
    )
    .option(
      '--token-file <file>',
      'access token for --auth bearer --token static (else SERVICE_ACCESS_TOKEN, else the token of svcctl login --save)',
    )
    .addOption(
      new Option(
        '--shell <s>',
        'the shell of the lines printed to paste (default: powershell on Windows, else bash)',
      ).choices(PASTE_SHELLS),
    );
}
