/**
 * Codex CLI entries (`[mcp_servers.<name>]` in config.toml). Codex never
 * expands ${VAR} in its file; instead it forwards variables by name:
 * `env_vars` (stdio), `env_http_headers` and `bearer_token_env_var` (HTTP).
 * With --secrets ref those are used, so no secret lands in the file; with
 * --secrets literal the values go into `env` / `http_headers`. Codex refuses
 * an entry with both `command` and `url`, and ignores `type` and `headers`,
 * so neither is written.
 */
import { HEADER_AUTHORIZATION, HEADER_EMAIL, HEADER_PASSWORD, MCP_PROXY_PACKAGE, PACKAGE_RUNNER_YES_FLAG } from '../../constants.js';
import type { ClientSpec, EntryRequest } from '../types.js';
import { allowHttpArgs, proxyEnv, proxyHeaders, remoteHeaders, runner } from './json-clients.js';
import { credentialKeys, literalValue, packageSpec, VAR_ACCESS_TOKEN, VAR_BASE_URL, VAR_EMAIL, VAR_PASSWORD, VARIABLE_OF } from './values.js';

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

export function codexProxy(client: ClientSpec, request: EntryRequest): Entry {
  const head = [MCP_PROXY_PACKAGE, request.mcpUrl];
  const tail = allowHttpArgs(request.mcpUrl);
  if (request.secrets === 'ref') {
    // mcp-remote expands ${VAR} in header values from the variables Codex forwards.
    const headerArgs =
      request.auth === 'bearer'
        ? ['--header', `${HEADER_AUTHORIZATION}:Bearer \${${VAR_ACCESS_TOKEN}}`]
        : proxyHeaders(request).args;
    return {
      ...runner(client, request.platform, [...head, ...headerArgs, ...tail]),
      env_vars: credentialKeys(request).map((key) => VARIABLE_OF[key]),
    };
  }
  const headers = proxyHeaders(request);
  const env = proxyEnv(request, (key) => literalValue(request, key));
  return { ...runner(client, request.platform, [...head, ...headers.args, ...tail]), env };
}
