// Goose takes variables by name like Codex (env_keys); header ${VAR}s come only from its envs and env_keys.
import type { ClientSpec, EntryRequest } from '../types.js';
import { codexLocal, codexProxy } from './codex.js';
import { remoteHeaders } from './json-clients.js';
import { credentialKeys, literalValue, VARIABLE_OF } from './values.js';

type Entry = Record<string, unknown>;

/** Goose's own default for new extensions. */
export const GOOSE_TIMEOUT = 300;

export function gooseKey(name: string): string {
  return name.toLowerCase();
}

function head(request: EntryRequest, type: 'stdio' | 'streamable_http'): Entry {
  return { enabled: true, type, name: request.name, description: '' };
}

export function gooseStdio(request: EntryRequest, codex: Entry): Entry {
  const { command, args, env, env_vars: envVars } = codex;
  return {
    ...head(request, 'stdio'),
    cmd: command,
    args,
    ...(env === undefined ? {} : { envs: env }),
    ...(envVars === undefined ? {} : { env_keys: envVars }),
    timeout: GOOSE_TIMEOUT,
  };
}

export function gooseLocal(client: ClientSpec, request: EntryRequest): Entry {
  return gooseStdio(request, codexLocal(client, request));
}

export function gooseProxy(client: ClientSpec, request: EntryRequest): Entry {
  return gooseStdio(request, codexProxy(client, request));
}

export function gooseRemote(_client: ClientSpec, request: EntryRequest): Entry {
  const byReference = request.secrets === 'ref';
  const headers = remoteHeaders(request, (key) =>
    byReference ? `\${${VARIABLE_OF[key]}}` : literalValue(request, key),
  );
  return {
    ...head(request, 'streamable_http'),
    uri: request.mcpUrl,
    headers,
    ...(byReference ? { env_keys: credentialKeys(request).map((key) => VARIABLE_OF[key]) } : {}),
    timeout: GOOSE_TIMEOUT,
  };
}
