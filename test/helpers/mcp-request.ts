/**
 * An EntryRequest for render tests (defaults: user scope, password auth, the
 * client's default secrets, Linux) and ClientEnvs of the three OS families
 * with no file on disk, for path tests computed on any OS.
 */
import { defaultSecrets, renderEntry } from '../../src/mcp/clients/render-entry.js';
import type { AuthMethod, ClientEnv, ClientId, EntryRequest, Mode } from '../../src/mcp/types.js';

export const BASE = 'https://acme.example.com/api';
export const MCP = 'https://acme.example.com/mcp';

export function entryRequest(
  client: ClientId,
  mode: Mode,
  auth: AuthMethod = 'password',
  extra: Partial<EntryRequest> = {},
): EntryRequest {
  return {
    target: { client },
    mode,
    auth,
    name: 'service',
    scope: 'user',
    baseUrl: BASE,
    mcpUrl: MCP,
    package: 'service-mcp-server',
    secrets: defaultSecrets({ client }),
    literals: { email: 'ann@acme.example', password: 'p4ss word', token: 'tok.en' },
    platform: 'linux',
    ...extra,
  };
}

/** The entry's value for a request. */
export const renderValue = (
  client: ClientId,
  mode: Mode,
  auth: AuthMethod = 'password',
  extra: Partial<EntryRequest> = {},
) => renderEntry(entryRequest(client, mode, auth, extra)).value;

const noFs = { exists: () => false, list: () => [] };
export const MAC: ClientEnv = {
  homeDir: '/Users/ann',
  env: {},
  platform: 'darwin',
  projectDir: '/Users/ann/proj',
  fs: noFs,
};
export const LINUX: ClientEnv = {
  homeDir: '/home/ann',
  env: {},
  platform: 'linux',
  projectDir: '/home/ann/proj',
  fs: noFs,
};
export const WIN: ClientEnv = {
  homeDir: 'C:\\Users\\ann',
  env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
  platform: 'win32',
  projectDir: 'C:\\work\\proj',
  fs: noFs,
};

/** A file-system probe where only these paths exist. */
export const onlyFiles = (...paths: string[]) => ({ exists: (p: string) => paths.includes(p), list: () => [] });

/** The arguments of a proxy entry through mcp-remote: the MCP URL, then each header as `--header Name:value`. */
export const mcpRemoteArgs = (email = '${SERVICE_EMAIL}', password = '${SERVICE_PASSWORD}'): string[] => [
  'mcp-remote',
  MCP,
  '--header',
  `X-Service-Email:${email}`,
  '--header',
  `X-Service-Password:${password}`,
];
export const MCP_REMOTE_BEARER_ARGS = ['mcp-remote', MCP, '--header', 'Authorization:${SERVICE_AUTH_HEADER}'];
