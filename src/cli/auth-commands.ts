/** Wiring of `svcctl login`, `svcctl token [inspect]` and `svcctl logout`. */
import { type Command, Option } from '@commander-js/extra-typings';
import { DEFAULT_TIMEOUT_SECONDS } from '../core/constants.js';
import type { ContextFactory } from '../core/context.js';
import { positiveSeconds, rejectPasswordFlag } from './parsers.js';

const PASSWORD_NOTE = `
The password comes from --password-stdin, --password-file, SERVICE_PASSWORD, or a
masked prompt (on a terminal). There is no password flag: flag values are visible
to other users in the process list.
`;

// PowerShell on Windows (docs/security.md "Lines to paste"): 5.1 has no `&&`, and `<` is no redirection there.
const LOGIN_EXAMPLES = {
  posix: `${PASSWORD_NOTE}
Examples:
  svcctl login                                         # prompts for what is missing
  TOKEN=$(svcctl login --email me@acme.example --password-stdin < pw.txt)
  svcctl login --save && svcctl token                  # save, then print it later
  svcctl login --save --remember-password              # also keep the password in the OS keychain
  svcctl login --json --password-file pw.txt | jq -r .expires_at`,
  powershell: `${PASSWORD_NOTE}
Examples (PowerShell):
  svcctl login                                         # prompts for what is missing
  $token = svcctl login --email me@acme.example --password-file pw.txt
  svcctl login --save; if ($?) { svcctl token }        # save (in Credential Manager), then print it later
  svcctl login --save --remember-password              # also keep the password in Credential Manager
  (svcctl login --json --password-file pw.txt | ConvertFrom-Json).expires_at`,
};

const TOKEN_EXAMPLES = {
  posix: `
Examples:
  svcctl token                          # the token saved by 'svcctl login --save'
  svcctl token --refresh --password-file pw.txt   # logs in again when expired
  svcctl login --save --remember-password         # once: the password goes to the OS keychain
  svcctl token --refresh --json-headers           # a headers helper: {"Authorization":"Bearer …"}
  svcctl token | svcctl token inspect -
  printf '%s' "$TOKEN" | svcctl token inspect --check - || echo expired`,
  powershell: `
Examples (PowerShell):
  svcctl token                          # the token saved by 'svcctl login --save'
  svcctl token --refresh --password-file pw.txt   # logs in again when expired
  svcctl login --save --remember-password         # once: the password goes to Credential Manager
  svcctl token --refresh --json-headers           # a headers helper: {"Authorization":"Bearer …"}
  svcctl token | svcctl token inspect -
  $token | svcctl token inspect --check -; if (-not $?) { 'expired' }`,
};

const timeoutOption = () =>
  new Option('--timeout <seconds>', 'deadline of the whole request, in seconds (at most 3600)')
    .argParser(positiveSeconds)
    .default(DEFAULT_TIMEOUT_SECONDS);

export function registerAuthCommands(
  program: Command,
  contextFor: ContextFactory,
  _argv?: readonly string[],
  platform?: NodeJS.Platform,
): void {
  const shell = platform === 'win32' ? 'powershell' : 'posix';
  const login = program
    .command('login')
    .description('log in and print the access token (a JWT) on stdout')
    .option('--email <e>', 'email of the user (else SERVICE_EMAIL, else a prompt)')
    .option('--password-stdin', 'read the password from stdin (one trailing newline removed)')
    .option('--password-file <file>', 'read the password from a file (one trailing newline removed)')
    .option('--save', 'save the token for this base URL (see svcctl token)')
    .option(
      '--remember-deployment',
      'with --save: also remember a sandbox on this computer (127.0.0.1, localhost) as a deployment; others always are',
    )
    .option(
      '--remember-password',
      "with --save: keep the password in the OS keychain, so 'token --refresh' and 'mcp proxy' can log in again",
    )
    .addOption(timeoutOption())
    .addHelpText('after', LOGIN_EXAMPLES[shell])
    .action(async (options, command) => {
      const { runLogin } = await import('../commands/login.js');
      await runLogin(contextFor(command), options);
    });
  rejectPasswordFlag(login);

  const token = program
    .command('token')
    .description("print the token saved by 'svcctl login --save' for the base URL")
    .option(
      '--refresh',
      'log in again when the saved token is expired (or expires within a minute), with a password that needs no prompt',
    )
    .option('--header', "print 'Authorization: Bearer <token>'")
    .option('--json-headers', 'print {"Authorization":"Bearer <token>"} (for a client\'s headers helper)')
    .option('--email <e>', 'with --refresh: email (else SERVICE_EMAIL, else the saved one)')
    .option('--password-stdin', 'with --refresh: read the password from stdin')
    .option('--password-file <file>', 'with --refresh: read the password from a file')
    .addOption(timeoutOption())
    .addHelpText('after', TOKEN_EXAMPLES[shell])
    .action(async (options, command) => {
      const { runToken } = await import('../commands/token.js');
      await runToken(contextFor(command), options);
    });
  rejectPasswordFlag(token);

  token
    .command('inspect')
    .description('decode a JWT (no verification): header, claims, expiry in words')
    .argument('[TOKEN]', "the token, or '-' to read it from stdin (the default when stdin is not a terminal)")
    .option('--check', 'exit 8 when the token is expired')
    .action(async (tokenArgument: string | undefined, options, command) => {
      const { runTokenInspect } = await import('../commands/token.js');
      await runTokenInspect(contextFor(command), { ...options, token: tokenArgument });
    });

  program
    .command('logout')
    .description('forget the token saved for the base URL (on a terminal, offers to forget its saved deployment)')
    .option('--forget-deployment', 'also forget the saved deployment of that base URL, without asking')
    .action(async (options, command) => {
      const { runLogout } = await import('../commands/logout.js');
      await runLogout(contextFor(command), options);
    });
}
