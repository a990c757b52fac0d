// The server gets what a strict client gives it (basic variables, those the entry forwards, its env block), so an
// entry that forgets a credential fails here as in the client. 2025's `initialize` without a `server/discover`
// probe: on stdio the SDK's probe starts the command twice (docs/mcp.md, "Protocol revisions").
import { PACKAGE_RUNNER } from '../../core/constants.js';
import { shorten } from '../../http/redact.js';
import type { Redactor } from '../../redaction/redaction.js';
import { VERSION } from '../../core/version.js';
import { missingPackageFix } from '../install/package-check.js';
import type { CommandPlan } from './entry-plan.js';
import { isPackageRunner, programOf } from './runtime-checks.js';
import { fail, pass, type CheckResult } from './types.js';

/** Inherited by the server: what a shell-less client passes on (plus proxy and npm settings npx needs to fetch). */
const BASIC_VARIABLES =
  /^(PATH|PATHEXT|HOME|USERPROFILE|USER|USERNAME|LOGNAME|SHELL|TERM|TMPDIR|TEMP|TMP|LANG|LC_[A-Z]+|SYSTEMROOT|SYSTEMDRIVE|WINDIR|COMSPEC|APPDATA|LOCALAPPDATA|PROGRAMDATA|PROGRAMFILES|XDG_[A-Z_]+|NODE_EXTRA_CA_CERTS|HTTPS?_PROXY|NO_PROXY|NPM_CONFIG_[A-Z_]+)$/i;

export function serverEnvironment(command: CommandPlan, env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && BASIC_VARIABLES.test(name)) result[name] = value;
  for (const name of command.forwarded) if (env[name] !== undefined) result[name] = env[name]!;
  return { ...result, ...command.env };
}

export interface StdioProbeOptions {
  env: NodeJS.ProcessEnv;
  /** Where the command starts: svcctl's runner folder, or the project for an entry the user allowed. */
  cwd: string;
  timeoutMs: number;
  redactor: Redactor;
  listTools?: boolean;
  /** For the fix when svcctl mcp proxy cannot log in again: whether this machine has a keychain. */
  platform: NodeJS.Platform;
}

function packageOf(command: CommandPlan): string | undefined {
  const args = programOf(command) === command.command ? command.args : command.args.slice(2);
  return isPackageRunner(programOf(command)) ? args.find((arg) => !arg.startsWith('-')) : undefined;
}

/** Its error lines, else its last two, redacted whole first: a secret may be broken over lines. */
function summarize(stderr: string, redactor: Redactor): string {
  const lines = redactor
    .redact(stderr)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^npm warn/i.test(line));
  const errors = lines.filter((line) => /error/i.test(line) && !/complete log of this run/i.test(line));
  const chosen = errors.length > 0 ? errors.slice(0, 2) : lines.slice(-2);
  return shorten(chosen.join(' | '), 240);
}

const FETCH_FAILED = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|ENETUNREACH|network|proxy/i;

function diagnose(stderr: string, command: CommandPlan, seconds: number): string {
  const pkg = packageOf(command);
  if (pkg === undefined)
    return 'check that the command runs in a terminal with the same environment, or raise --timeout';
  if (/E404|404 Not Found|is not in this registry/i.test(stderr)) return missingPackageFix(pkg);
  if (FETCH_FAILED.test(stderr)) {
    return `npx cannot fetch ${pkg} within ${seconds} s: check the network, HTTPS_PROXY or npm's registry setting (npm config get registry), or raise --timeout`;
  }
  return `check that \`${PACKAGE_RUNNER} -y ${pkg}\` starts in a terminal; the first start downloads the package, so it may need more than ${seconds} s (--timeout)`;
}

async function listTools(
  client: { listTools(params?: undefined, options?: { timeout: number }): Promise<{ tools: Array<{ name: string }> }> },
  options: StdioProbeOptions,
): Promise<CheckResult> {
  try {
    const { tools } = await client.listTools(undefined, { timeout: options.timeoutMs });
    return pass(
      'tools',
      `${tools.length} tool${tools.length === 1 ? '' : 's'}: ${tools.map((tool) => tool.name).join(', ')}`,
    );
  } catch (error) {
    return fail(
      'tools',
      `tools/list failed: ${shorten(options.redactor.redact((error as Error).message), 240)}`,
      'run the command in a terminal to see its log on stderr',
    );
  }
}

export async function probeStdioServer(command: CommandPlan, options: StdioProbeOptions): Promise<CheckResult[]> {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/client'),
    import('@modelcontextprotocol/client/stdio'),
  ]);
  const seconds = options.timeoutMs / 1000;
  const line = [command.command, ...command.args].join(' ');
  const shown = shorten(options.redactor.redact(line), 160);
  const transport = new StdioClientTransport({
    command: command.command,
    args: command.args,
    env: serverEnvironment(command, options.env),
    cwd: options.cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    // The last 4000 characters, cut at a line start: half a secret cut off would no longer be recognised.
    const kept = stderr + chunk.toString('utf8');
    stderr = kept.length <= 4000 ? kept : kept.slice(kept.indexOf('\n', kept.length - 4000) + 1 || kept.length);
  });
  const client = new Client({ name: 'svcctl-doctor', version: VERSION });
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    const server = client.getServerVersion();
    const started = pass(
      'initialize',
      `\`${shown}\` started and answered${server ? ` (${server.name} ${server.version})` : ''}`,
    );
    if (!options.listTools) return [started];
    return [started, await listTools(client, options)];
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EACCES') {
      return [
        fail(
          'initialize',
          `\`${shown}\` could not be started: ${code === 'ENOENT' ? 'no such command' : 'permission denied'}`,
          'fix the command of the entry, or install it',
        ),
      ];
    }
    const last = summarize(stderr, options.redactor);
    const said = last === '' ? '' : `; its stderr: ${last}`;
    const what =
      code === 'REQUEST_TIMEOUT' || code === -32001
        ? `did not answer initialize within ${seconds} s`
        : 'exited before answering initialize';
    const pkg = packageOf(command);
    const plain =
      pkg === undefined
        ? ''
        : /E404|404 Not Found|is not in this registry/i.test(stderr)
          ? `${pkg} is not in the npm registry: `
          : FETCH_FAILED.test(stderr)
            ? `${pkg} cannot be fetched (offline, or the npm registry is unreachable): `
            : code === 'REQUEST_TIMEOUT' || code === -32001
              ? ''
              : `${pkg} fails: `;
    // svcctl mcp proxy says itself what it lacks (src/auth/fresh-token.ts); a client does not always pass
    // SERVICE_PASSWORD on to its servers.
    const fix = /svcctl has no (password|email) to log in again/.test(stderr)
      ? await (await import('../../auth/keychain.js')).reloginAdvice(options.platform)
      : diagnose(stderr, command, seconds);
    return [fail('initialize', `${plain}\`${shown}\` ${what}${said}`, fix)];
  } finally {
    await client.close().catch(() => undefined);
  }
}
