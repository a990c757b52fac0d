/**
 * Entries of the JSON clients, per mode, each in the shape its client really
 * reads (reference §0 and §A.1): the URL field and transport discriminator,
 * the variable syntax, fixed fields (Zed's `source`, VS Code's `type`), all
 * read from the client's row (ClientSpec.shape), and
 * `cmd /c npx` on Windows where the client spawns without a shell.
 */
import { HEADER_AUTHORIZATION, HEADER_EMAIL, HEADER_PASSWORD, MCP_PROXY_PACKAGE, PACKAGE_RUNNER, PACKAGE_RUNNER_YES_FLAG } from '../../core/constants.js';
import { usageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../config/settings.js';
import type { ClientSpec, EntryRequest } from '../types.js';
import {
  credentialValue,
  type CredentialKey,
  ESCAPED_DOLLAR_BRACE,
  packageSpec,
  PROXY_HEADER_PREFIX,
  VAR_AUTH_HEADER,
  VAR_BASE_URL,
  VAR_EMAIL,
  VAR_PASSWORD,
} from './values.js';

type Entry = Record<string, unknown>;

/** npx and its arguments, as `cmd /c npx …` on Windows for clients that spawn without a shell. */
export function runner(client: ClientSpec | undefined, platform: NodeJS.Platform, args: string[]): { command: string; args: string[] } {
  if (client?.windowsCmdWrap && platform === 'win32') return { command: 'cmd', args: ['/c', PACKAGE_RUNNER, ...args] };
  return { command: PACKAGE_RUNNER, args };
}

/**
 * Stdio entries in the row's shape: its fixed fields first (VS Code and Claude
 * Code `type: "stdio"`, Zed `source: "custom"`, opencode `type: "local"`), the
 * command as `command` + `args` or one array (opencode), the environment under
 * `env` or the row's field (opencode `environment`), its trailing fields last.
 */
export function stdioEntry(client: ClientSpec, run: { command: string; args: string[] }, env?: Record<string, string>): Entry {
  const { stdioFields, commandArray, envField, trailingFields } = client.shape;
  const command = commandArray ? { command: [run.command, ...run.args] } : run;
  return { ...stdioFields, ...command, ...(env !== undefined ? { [envField ?? 'env']: env } : {}), ...trailingFields };
}

/** The value the client's file holds for one credential: its variable syntax, its input ids. */
const valueFor = (client: ClientSpec, request: EntryRequest) => (key: CredentialKey): string => credentialValue(request, client.variables, key, client.wordInputIds);

export function localEntry(client: ClientSpec, request: EntryRequest): Entry {
  const value = valueFor(client, request);
  return stdioEntry(client, runner(client, request.platform, [PACKAGE_RUNNER_YES_FLAG, packageSpec(request.package)]), {
    [VAR_EMAIL]: value('email'),
    [VAR_PASSWORD]: value('password'),
    [VAR_BASE_URL]: request.baseUrl,
  });
}

export function remoteHeaders(request: EntryRequest, value: (key: 'email' | 'password' | 'token') => string): Record<string, string> {
  if (request.auth === 'bearer') return { [HEADER_AUTHORIZATION]: `Bearer ${value('token')}` };
  return { [HEADER_EMAIL]: value('email'), [HEADER_PASSWORD]: value('password') };
}

/** A usage error when the client's file cannot take a remote entry svcctl writes (no remote entries, or no documented headers). */
export function checkRemotePossible(client: ClientSpec): void {
  const proxyHint = `use --mode proxy (runs ${MCP_PROXY_PACKAGE} through npx)`;
  if (!client.remoteInFile) {
    const { why, elsewhere } = client.noRemote ?? { why: 'it skips such entries' };
    throw usageError(`${client.label} cannot hold a remote server in its config file (${why})`, elsewhere === undefined ? proxyHint : `${proxyHint}, or ${elsewhere}`);
  }
  if (client.remoteHeadersUndocumented !== undefined) {
    throw usageError(
      `--mode remote needs headers to log in, and ${client.remoteHeadersUndocumented}`,
      `${proxyHint}; with --auth bearer, --token helper writes a \`svcctl mcp proxy\` entry instead`,
    );
  }
}

export function remoteEntry(client: ClientSpec, request: EntryRequest): Entry {
  checkRemotePossible(client);
  const headers = remoteHeaders(request, valueFor(client, request));
  const { urlField, fields } = client.shape.remote;
  return { ...fields, [urlField]: request.mcpUrl, headers, ...client.shape.trailingFields };
}

/** mcp-remote refuses plain http to a host other than loopback without --allow-http. */
export function allowHttpArgs(mcpUrl: string): string[] {
  const url = new URL(mcpUrl);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? ['--allow-http'] : [];
}

/**
 * The `--header` arguments of mcp-remote and the variables it reads them from.
 * Headers are written `Name:${VAR}` (no space): some clients split arguments
 * at spaces (Cursor, Claude Desktop and Codex on Windows), and mcp-remote
 * expands ${VAR} in header values from its own environment, so the values
 * travel in the entry's env block and never in argv. `open` is how `${` is
 * written: ESCAPED_DOLLAR_BRACE for clients that expand ${VAR} in args.
 */
export function proxyHeaders(request: EntryRequest, open = '${', prefix = ''): { args: string[]; variables: Record<string, 'email' | 'password' | 'token'> } {
  const ref = (name: string): string => `${open}${prefix}${name}}`;
  if (request.auth === 'bearer') {
    return { args: ['--header', `${HEADER_AUTHORIZATION}:${ref(VAR_AUTH_HEADER)}`], variables: { [`${prefix}${VAR_AUTH_HEADER}`]: 'token' } };
  }
  return {
    args: ['--header', `${HEADER_EMAIL}:${ref(VAR_EMAIL)}`, '--header', `${HEADER_PASSWORD}:${ref(VAR_PASSWORD)}`],
    variables: { [`${prefix}${VAR_EMAIL}`]: 'email', [`${prefix}${VAR_PASSWORD}`]: 'password' },
  };
}

/** The env block mcp-remote reads its header values from (proxyHeaders' variables); a token goes as "Bearer <token>". */
export function proxyEnv(request: EntryRequest, valueOf: (key: CredentialKey) => string, prefix = ''): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [variable, key] of Object.entries(proxyHeaders(request, '${', prefix).variables)) {
    const value = valueOf(key);
    env[variable] = key === 'token' ? `Bearer ${value}` : value;
  }
  return env;
}

/**
 * The same shape for every JSON client: references (or literal values) in the
 * env block, `Name:${VAR}` in args. Claude Code and Gemini CLI expand ${VAR}
 * in args themselves, which would put the secret into mcp-remote's argv (or,
 * for a variable only the env block holds, depend on how they treat an unset
 * one), so their args spell `${` as ESCAPED_DOLLAR_BRACE (see values.ts). A
 * client without ${VAR:-default} that keeps unset references (Qwen Code)
 * gets names only the env block sets instead (PROXY_HEADER_PREFIX).
 */
export function proxyEntry(client: ClientSpec, request: EntryRequest): Entry {
  const head = [MCP_PROXY_PACKAGE, request.mcpUrl];
  const tail = allowHttpArgs(request.mcpUrl);
  const prefix = client.keepsUnsetReferences ? PROXY_HEADER_PREFIX : '';
  const headers = proxyHeaders(request, client.expandsInArgs && !client.keepsUnsetReferences ? ESCAPED_DOLLAR_BRACE : '${', prefix);
  const env = proxyEnv(request, valueFor(client, request), prefix);
  return stdioEntry(client, runner(client, request.platform, [...head, ...headers.args, ...tail]), env);
}
