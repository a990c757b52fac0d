import {
  HEADER_AUTHORIZATION,
  HEADER_EMAIL,
  HEADER_PASSWORD,
  MCP_PROXY_PACKAGE,
  PACKAGE_RUNNER,
  PACKAGE_RUNNER_YES_FLAG,
} from '../../core/constants.js';
import { usageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../config/settings.js';
import type { ClientSpec, EntryRequest } from '../types.js';
import { cmdSlashC } from './shell-quote.js';
import {
  credentialValue,
  type CredentialKey,
  ESCAPED_DOLLAR_BRACE,
  packageSpec,
  PROXY_HEADER_PREFIX,
  runnerEnv,
  VAR_AUTH_HEADER,
  VAR_BASE_URL,
  VAR_EMAIL,
  VAR_PASSWORD,
} from './values.js';

type Entry = Record<string, unknown>;

/** npx, or its absolute path where the client would not find it (request.runner, src/mcp/install/runner-path.ts). */
export function runner(
  client: ClientSpec | undefined,
  request: Pick<EntryRequest, 'platform' | 'runner'>,
  args: string[],
): { command: string; args: string[] } {
  const command = request.runner?.command ?? PACKAGE_RUNNER;
  if (client?.windowsCmdWrap && request.platform === 'win32') return cmdSlashC(command, args, client.label);
  return { command, args };
}

export function stdioEntry(
  client: ClientSpec,
  run: { command: string; args: string[] },
  env?: Record<string, string>,
): Entry {
  const { stdioFields, commandArray, envField, trailingFields } = client.shape;
  const command = commandArray ? { command: [run.command, ...run.args] } : run;
  return { ...stdioFields, ...command, ...(env !== undefined ? { [envField ?? 'env']: env } : {}), ...trailingFields };
}

const valueFor =
  (client: ClientSpec, request: EntryRequest) =>
  (key: CredentialKey): string =>
    credentialValue(request, client.variables, key, client.wordInputIds);

export function localEntry(client: ClientSpec, request: EntryRequest): Entry {
  const value = valueFor(client, request);
  return stdioEntry(client, runner(client, request, [PACKAGE_RUNNER_YES_FLAG, packageSpec(request.package)]), {
    [VAR_EMAIL]: value('email'),
    [VAR_PASSWORD]: value('password'),
    [VAR_BASE_URL]: request.baseUrl,
    ...runnerEnv(client.variables, request),
  });
}

export function remoteHeaders(
  request: EntryRequest,
  value: (key: 'email' | 'password' | 'token') => string,
): Record<string, string> {
  if (request.auth === 'bearer') return { [HEADER_AUTHORIZATION]: `Bearer ${value('token')}` };
  return { [HEADER_EMAIL]: value('email'), [HEADER_PASSWORD]: value('password') };
}

export function checkRemotePossible(client: ClientSpec): void {
  const proxyHint = `use --mode proxy (runs ${MCP_PROXY_PACKAGE} through npx)`;
  if (!client.remoteInFile) {
    const { why, elsewhere } = client.noRemote ?? { why: 'it skips such entries' };
    throw usageError(
      `${client.label} cannot hold a remote server in its config file (${why})`,
      elsewhere === undefined ? proxyHint : `${proxyHint}, or ${elsewhere}`,
    );
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

/** `Name:${VAR}` with no space (some clients split args there); mcp-remote expands it from its env, not argv. */
export function proxyHeaders(
  request: EntryRequest,
  open = '${',
  prefix = '',
): { args: string[]; variables: Record<string, 'email' | 'password' | 'token'> } {
  const ref = (name: string): string => `${open}${prefix}${name}}`;
  if (request.auth === 'bearer') {
    return {
      args: ['--header', `${HEADER_AUTHORIZATION}:${ref(VAR_AUTH_HEADER)}`],
      variables: { [`${prefix}${VAR_AUTH_HEADER}`]: 'token' },
    };
  }
  return {
    args: ['--header', `${HEADER_EMAIL}:${ref(VAR_EMAIL)}`, '--header', `${HEADER_PASSWORD}:${ref(VAR_PASSWORD)}`],
    variables: { [`${prefix}${VAR_EMAIL}`]: 'email', [`${prefix}${VAR_PASSWORD}`]: 'password' },
  };
}

export function proxyEnv(
  request: EntryRequest,
  valueOf: (key: CredentialKey) => string,
  prefix = '',
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [variable, key] of Object.entries(proxyHeaders(request, '${', prefix).variables)) {
    const value = valueOf(key);
    env[variable] = key === 'token' ? `Bearer ${value}` : value;
  }
  return env;
}

/** Clients that expand ${VAR} in args get `${` escaped (values.ts), or names only the env block sets (Qwen Code). */
export function proxyEntry(client: ClientSpec, request: EntryRequest): Entry {
  if (client.noProxy !== undefined) {
    throw usageError(
      `${client.label} cannot hold a ${MCP_PROXY_PACKAGE} entry (${client.noProxy})`,
      'use --mode remote',
    );
  }
  const head = [MCP_PROXY_PACKAGE, request.mcpUrl];
  const tail = allowHttpArgs(request.mcpUrl);
  const prefix = client.keepsUnsetReferences ? PROXY_HEADER_PREFIX : '';
  const headers = proxyHeaders(
    request,
    client.expandsInArgs && !client.keepsUnsetReferences ? ESCAPED_DOLLAR_BRACE : '${',
    prefix,
  );
  const env = { ...proxyEnv(request, valueFor(client, request), prefix), ...runnerEnv(client.variables, request) };
  return stdioEntry(client, runner(client, request, [...head, ...headers.args, ...tail]), env);
}
