/**
 * Goose extensions (`extensions.<key>` in config.yaml). Goose never expands
 * ${VAR} from the process environment in its file; like Codex it takes
 * variables by name: `env_keys` are looked up in the environment, then the
 * keyring, and set for a stdio server; a streamable_http extension's header
 * values get ${VAR} replaced from its `envs` and `env_keys` values only
 * (block/goose crates/goose/src/agents/extension_manager.rs:
 * merge_environments, substitute_env_vars). So with --secrets ref the stdio
 * entries are Codex's (env_vars → env_keys) and the remote one names its
 * variables in env_keys; with --secrets literal values go into envs / headers.
 * Field names and required fields: crates/goose/src/agents/extension.rs
 * (ExtensionConfig; `description` is required for streamable_http) and
 * config/extensions.rs (ExtensionEntry: `enabled` beside the flattened config).
 */
import type { ClientSpec, EntryRequest } from '../types.js';
import { codexLocal, codexProxy } from './codex.js';
import { remoteHeaders } from './json-clients.js';
import { credentialKeys, literalValue, VARIABLE_OF } from './values.js';

type Entry = Record<string, unknown>;

/** Goose's own default for new extensions (config::DEFAULT_EXTENSION_TIMEOUT). */
export const GOOSE_TIMEOUT = 300;

/** The extensions map key Goose uses for a name (config/extensions.rs name_to_key: lower case). */
export function gooseKey(name: string): string {
  return name.toLowerCase();
}

function head(request: EntryRequest, type: 'stdio' | 'streamable_http'): Entry {
  return { enabled: true, type, name: request.name, description: '' };
}

/** A Codex-shaped stdio entry in Goose's field names. */
function stdio(request: EntryRequest, codex: Entry): Entry {
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
  return stdio(request, codexLocal(client, request));
}

export function gooseProxy(client: ClientSpec, request: EntryRequest): Entry {
  return stdio(request, codexProxy(client, request));
}

export function gooseRemote(_client: ClientSpec, request: EntryRequest): Entry {
  const byReference = request.secrets === 'ref';
  const headers = remoteHeaders(request, (key) => (byReference ? `\${${VARIABLE_OF[key]}}` : literalValue(request, key)));
  return {
    ...head(request, 'streamable_http'),
    uri: request.mcpUrl,
    headers,
    ...(byReference ? { env_keys: credentialKeys(request).map((key) => VARIABLE_OF[key]) } : {}),
    timeout: GOOSE_TIMEOUT,
  };
}
