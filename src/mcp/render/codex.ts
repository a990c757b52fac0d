/**
 * Codex CLI entries (`[mcp_servers.<name>]` in config.toml). Codex never
 * expands ${VAR} in its file; instead it forwards variables by name:
 * `env_vars` (stdio), `env_http_headers` and `bearer_token_env_var` (HTTP).
 * With --secrets ref those are used, so no secret lands in the file; with
 * --secrets literal the values go into `env` / `http_headers`. Codex refuses
 * an entry with both `command` and `url`, and ignores `type` and `headers`,
 * so neither is written.
 */
import { HEADER_AUTHORIZATION, HEADER_EMAIL, HEADER_PASSWORD, MCP_PROXY_PACKAGE, PACKAGE_RUNNER_YES_FLAG } from '../../core/constants.js';
import type { ClientSpec, EntryRequest } from '../types.js';
import { allowHttpArgs, proxyEnv, proxyHeaders, remoteHeaders, runner } from './json-clients.js';
import { credentialKeys, literalValue, packageSpec, VAR_ACCESS_TOKEN, VAR_AUTH_HEADER, VAR_BASE_URL, VAR_EMAIL, VAR_PASSWORD, VARIABLE_OF } from './values.js';

type Entry = Record<string, unknown>;

export function codexLocal(client: ClientSpec, request: EntryRequest): Entry {
  const run = runner(client, request.platform, [PACKAGE_RUNNER_YES_FLAG, packageSpec(request.package)]);
  if (request.secrets === 'ref') {
    return { ...run, env: { [VAR_BASE_URL]: request.baseUrl }, env_vars: [VAR_EMAIL, VAR_PASSWORD] };
  }
  return {
    ...run,
    env: { [VAR_EMAIL]: literalValue(request, 'email'), [VAR_PASSWORD]: literalValue(request, 'password'), [VAR_BASE_URL]: request.baseUrl },
  };
}

export function codexRemote(request: EntryRequest): Entry {
  const url = request.mcpUrl;
  if (request.secrets === 'literal') {
    // An inline bearer_token is rejected by Codex: the literal token goes in http_headers.
    return { url, http_headers: remoteHeaders(request, (key) => literalValue(request, key)) };
  }
  if (request.auth === 'bearer') return { url, bearer_token_env_var: VAR_ACCESS_TOKEN };
  return { url, env_http_headers: { [HEADER_EMAIL]: VAR_EMAIL, [HEADER_PASSWORD]: VAR_PASSWORD } };
}

/**
 * The variable mcp-remote reads the bearer header from, for Codex with
 * --secrets ref. Codex forwards variables by name and never composes values,
 * so nothing in the entry can turn a token into "Bearer <token>". Elsewhere the
 * argument is `Authorization:Bearer ${SERVICE_ACCESS_TOKEN}`: one argv item,
 * the token is expanded inside mcp-remote. On Windows Codex starts `cmd /c npx`
 * and the space splits that argument (reference §C6), so there the whole value
 * comes from SERVICE_AUTH_HEADER, which the user sets to "Bearer <token>".
 */
export function codexBearerVariable(platform: NodeJS.Platform): string {
  return platform === 'win32' ? VAR_AUTH_HEADER : VAR_ACCESS_TOKEN;
}

export function codexProxy(client: ClientSpec, request: EntryRequest): Entry {
  const head = [MCP_PROXY_PACKAGE, request.mcpUrl];
  const tail = allowHttpArgs(request.mcpUrl);
  if (request.secrets === 'ref') {
    // mcp-remote expands ${VAR} in header values from the variables Codex forwards.
    if (request.auth === 'bearer') {
      const variable = codexBearerVariable(request.platform);
      const value = variable === VAR_AUTH_HEADER ? `\${${variable}}` : `Bearer \${${variable}}`;
      return { ...runner(client, request.platform, [...head, '--header', `${HEADER_AUTHORIZATION}:${value}`, ...tail]), env_vars: [variable] };
    }
    return {
      ...runner(client, request.platform, [...head, ...proxyHeaders(request).args, ...tail]),
      env_vars: credentialKeys(request).map((key) => VARIABLE_OF[key]),
    };
  }
  const headers = proxyHeaders(request);
  const env = proxyEnv(request, (key) => literalValue(request, key));
  return { ...runner(client, request.platform, [...head, ...headers.args, ...tail]), env };
}
