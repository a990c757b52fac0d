/** The commander program: global options, exit-code help, and the command groups. Each action imports its
 * implementation lazily, so a command loads only what it uses. */
import { Command, Option } from '@commander-js/extra-typings';
import { CLI_NAME } from '../core/constants.js';
import type { Context, ContextFactory, GlobalOptions, Picked, RunningProgram, SecretStore } from '../core/context.js';
import { baseUrlSource } from '../config/settings.js';
import { colorAllowed, Output, PLAIN_STYLES, type OutputStream, type Styles } from '../core/output.js';
import { formatCommanderError, suggestChoices } from './choice-suggestions.js';
import { registerEventCommands } from './event-commands.js';

export interface Io extends Pick<Context, 'env' | 'cwd' | 'homeDir' | 'platform' | 'uid' | 'stdin' | 'secrets'> {
  stdout: OutputStream;
  stderr: OutputStream;
  version: string;
  /** chalk's colours, loaded when stderr can show them (output.ts loadColors). */
  colors?: Styles;
  /** How this svcctl was started (main.ts); undefined inside another program. */
  program?: RunningProgram;
  /** The clock (tests move it instead of sleeping); the system clock when not given. */
  now?: () => Date;
  /** The wait before a write is read back (Context.pause); a timer when not given. */
  pause?: (ms: number) => Promise<void>;
  /** The OS keychain for tokens (Context.secretStore); @napi-rs/keyring when not given. */
  secretStore?: SecretStore;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    internal error (a bug: please report it)
  2    usage error: unknown flag, bad flag value, missing input, bad base URL
  3    invalid data: an event, NDJSON line, token or input file failed validation
  4    authentication rejected by the service (401/403), or no usable saved token
  5    request rejected by the service (any other 4xx)
  6    service unreachable or failing (network error, timeout, 5xx or 429 after retries)
  7    a config or credentials file is unsafe to use or change
  8    check failed (signature mismatch, expired token, failing doctor check)
  9    batch partly failed (see --failed-out)
  130  interrupted

Environment: SERVICE_BASE_URL, SERVICE_MCP_URL, SERVICE_EMAIL, SERVICE_PASSWORD,
SERVICE_ACCESS_TOKEN, SERVICE_INGEST_TOKEN, SERVICE_HMAC_SECRET (legacy SVC_* names
are accepted; the SERVICE_* name wins). NO_COLOR turns colours off.`;

type Register = (
  program: Command,
  contextFor: ContextFactory,
  argv?: readonly string[],
  platform?: NodeJS.Platform,
) => unknown;

/** Every command group in help order, with the top-level command names it adds. Each is loaded only when built: the
 * other groups' options, help and helpers are a fifth of what `event send` would load otherwise. */
const GROUPS: readonly { names: readonly string[]; load: () => Promise<Register> }[] = [
  // The hot path (`event send`) is in the core chunk: a lazy import would be one more file to read on every send.
  { names: ['event'], load: async () => registerEventCommands },
  { names: ['login', 'token', 'logout'], load: async () => (await import('./auth-commands.js')).registerAuthCommands },
  { names: ['mcp'], load: async () => (await import('./mcp-commands.js')).registerMcpCommands },
  {
    names: ['deployment', 'status'],
    load: async () => (await import('./deployment-commands.js')).registerDeploymentCommands,
  },
  { names: ['dev'], load: async () => (await import('./dev-commands.js')).registerDevCommands },
  { names: ['completion'], load: async () => (await import('./completion.js')).registerCompletionCommand },
];

/** The groups to build for argv: when the first word is a group's own command, that group alone (commander dispatches
 * there, and building every option of every group is a tenth of `event send`'s start-up); otherwise (top-level help,
 * `help X`, an unknown word, an option first, `completion`, which walks the whole tree) all of them. */
function groupsFor(argv: readonly string[] | undefined): readonly { load: () => Promise<Register> }[] {
  const first = argv?.[0];
  const owner = GROUPS.find((group) => first !== undefined && group.names.includes(first));
  return owner && first !== 'completion' ? [owner] : GROUPS;
}

/** The deployment a command uses when no flag or variable gives the base URL; undefined when one does (nothing is read). */
async function savedDeploymentFor(
  { env, homeDir, uid, platform }: Pick<Io, 'env' | 'homeDir' | 'uid' | 'platform'>,
  globals: Partial<GlobalOptions>,
  command: string,
): Promise<Picked | undefined> {
  if (command === 'dev' || command === 'completion') return undefined;
  const source = baseUrlSource(env, globals);
  if (source.from !== 'saved') return undefined;
  const { pickDeployment } = await import('../config/deployments-file.js');
  const savedLogins = async (): Promise<string[]> => {
    const { savedBaseUrls } = await import('../auth/credentials-store.js');
    return savedBaseUrls({ env, homeDir, uid, platform });
  };
  // status reports a credentials file it cannot use on its login line, and goes on with the rest.
  const logins = command === 'status' ? () => savedLogins().catch(() => []) : savedLogins;
  return pickDeployment({ env, homeDir, uid, platform }, source.wanted, logins);
}

/** `svcctl help event send` as `svcctl event send --help`: commander's help command takes only the first word, and
 * would show the `event` group instead. */
export function helpWordsAsFlag(argv: readonly string[]): string[] {
  if (argv[0] !== 'help' || argv.length < 3) return [...argv];
  const words = argv.slice(1);
  const firstOption = words.findIndex((word) => word.startsWith('-'));
  const path = firstOption === -1 ? words : words.slice(0, firstOption);
  return [...path, '--help', ...(firstOption === -1 ? [] : words.slice(firstOption))];
}

/** The top-level command: its global options, and commander's output and usage errors in svcctl's form. */
function topLevelCommand(io: Io, argv: readonly string[] | undefined) {
  return new Command(CLI_NAME)
    .description('Signed event ingestion, login tokens and MCP client configuration for the service.')
    .version(io.version, '-V, --version', 'print the version')
    .option('--json', 'print results as JSON (one document, or one line per item)')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'say where each setting came from (never its value)')
    .option('--no-color', 'no colours (also: NO_COLOR=1)')
    .option('--no-input', 'never prompt; fail at once when a value is missing')
    .addOption(new Option('--base-url <url>', 'API base of the deployment (else SERVICE_BASE_URL)'))
    .addOption(new Option('--mcp-url <url>', 'remote MCP address (else SERVICE_MCP_URL, or derived from the base URL)'))
    .option(
      '--allow-http',
      'send credentials over plain http to a host other than loopback (else refused; also SVCCTL_ALLOW_HTTP=1)',
    )
    .addOption(
      new Option(
        '--deployment <name>',
        'a deployment saved by login --save (else SVCCTL_DEPLOYMENT; svcctl deployment list)',
      ),
    )
    .addHelpText('after', EXIT_CODES_HELP)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Commander's own usage errors in svcctl's form (error: in red, the suggestion as hint:).
      outputError: (text, write) => {
        const colored =
          io.colors !== undefined && colorAllowed(io.stderr, io.env, !(argv ?? []).includes('--no-color'));
        // Redacted: a value commander echoes (an unknown option, a bad choice) may be a secret pasted in the wrong place.
        write(formatCommanderError(io.secrets.redact(text), colored ? io.colors! : PLAIN_STYLES));
      },
    });
}

/** Each command's context: its global options, an Output for them, and the deployment read before it ran. */
function contextFactory(io: Io, deployment: () => Picked | undefined): ContextFactory {
  return (command) => {
    const given = command.optsWithGlobals() as Partial<GlobalOptions>;
    // Flags not given are false (commander leaves them undefined, which keeps "(default: false)" out of --help).
    const globals: GlobalOptions = {
      ...given,
      json: given.json === true,
      quiet: given.quiet === true,
      verbose: given.verbose === true,
      color: given.color !== false,
      input: given.input !== false,
    };
    const out = new Output({
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
      quiet: globals.quiet,
      verbose: globals.verbose,
      color: globals.color,
      colors: io.colors,
      redactor: io.secrets,
    });
    const picked = deployment();
    return {
      env: io.env,
      cwd: io.cwd,
      homeDir: io.homeDir,
      platform: io.platform,
      ...(io.uid !== undefined ? { uid: io.uid } : {}),
      get stdin() {
        return io.stdin; // on first use (main.ts)
      },
      out,
      globals,
      ...(io.program ? { program: io.program } : {}),
      secrets: io.secrets,
      now: io.now ?? (() => new Date()),
      ...(io.pause ? { pause: io.pause } : {}),
      ...(io.secretStore ? { secretStore: io.secretStore } : {}),
      ...(picked ? { deployment: picked } : {}),
    };
  };
}

/** The program; with `argv`, only the command groups that argv can reach (see groupsFor). */
export async function createProgram(io: Io, argv?: readonly string[]): Promise<Command> {
  const program = topLevelCommand(io, argv);
  // Without --base-url or SERVICE_BASE_URL, the saved deployment is read before the command runs (the rest is synchronous).
  let deployment: Picked | undefined;
  program.hook('preAction', async (_program, action) => {
    deployment = await savedDeploymentFor(io, action.optsWithGlobals() as Partial<GlobalOptions>, action.name());
  });
  const contextFor = contextFactory(io, () => deployment);
  const registers = await Promise.all(groupsFor(argv).map((group) => group.load()));
  for (const register of registers) register(program, contextFor, argv, io.platform);
  suggestChoices(program);
  return program;
}
