// Codex never expands ${VAR} (it forwards variables by name), refuses `command` with `url`, ignores `type`, `headers`.
import {
  HEADER_AUTHORIZATION,
  HEADER_EMAIL,
  HEADER_PASSWORD,
  MCP_PROXY_PACKAGE,
  PACKAGE_RUNNER_YES_FLAG,
} from '../../core/constants.js';
import type { ClientSpec, EntryRequest } from '../types.js';
import { allowHttpArgs, proxyEnv, proxyHeaders, remoteHeaders, runner } from './json-clients.js';
import {
  CA_VARIABLE,
  credentialKeys,
  literalValue,
  packageSpec,
  runnerEnv,
  VAR_ACCESS_TOKEN,
  VAR_AUTH_HEADER,
  VAR_BASE_URL,
  VAR_EMAIL,
  VAR_PASSWORD,
  VARIABLE_OF,
} from './values.js';

type Entry = Record<string, unknown>;

/** Codex forwards variables by name (env_vars): the CA file is forwarded so with --secrets ref, else written. */
function extras(request: EntryRequest): { env: Record<string, string>; names: string[] } {
  const byName = request.secrets === 'ref' && request.caCerts !== undefined;
  return {
    env: runnerEnv('none', byName ? { ...request, caCerts: undefined } : request),
    names: byName ? [CA_VARIABLE] : [],
  };
}

/** `env` only when it holds something. */
function withEnv(entry: Entry, env: Record<string, string>, names: string[] = []): Entry {
  const forwarded = [...((entry.env_vars as string[] | undefined) ?? []), ...names];
  return {
    ...entry,
    ...(Object.keys(env).length > 0 ? { env: { ...((entry.env as Record<string, string>) ?? {}), ...env } } : {}),
    ...(forwarded.length > 0 ? { env_vars: forwarded } : {}),
  };
}

export function codexLocal(client: ClientSpec, request: EntryRequest): Entry {
  const run = runner(client, request, [PACKAGE_RUNNER_YES_FLAG, packageSpec(request.package)]);
  const { env, names } = extras(request);
  if (request.secrets === 'ref') {
    return withEnv(
      { ...run, env: { [VAR_BASE_URL]: request.baseUrl }, env_vars: [VAR_EMAIL, VAR_PASSWORD] },
      env,
      names,
    );
  }
  const literal = {
    [VAR_EMAIL]: literalValue(request, 'email'),
    [VAR_PASSWORD]: literalValue(request, 'password'),
    [VAR_BASE_URL]: request.baseUrl,
  };
  return withEnv({ ...run, env: literal }, env, names);
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

/** On Windows Codex runs `cmd /c npx`, where "Bearer ${VAR}" splits at the space: the user sets the whole value. */
export function codexBearerVariable(platform: NodeJS.Platform): string {
  return platform === 'win32' ? VAR_AUTH_HEADER : VAR_ACCESS_TOKEN;
}

export function codexProxy(client: ClientSpec, request: EntryRequest): Entry {
  const { env, names } = extras(request);
  return withEnv(codexProxyBare(client, request), env, names);
}

function codexProxyBare(client: ClientSpec, request: EntryRequest): Entry {
  const head = [MCP_PROXY_PACKAGE, request.mcpUrl];
  const tail = allowHttpArgs(request.mcpUrl);
  if (request.secrets === 'ref') {
    if (request.auth === 'bearer') {
      const variable = codexBearerVariable(request.platform);
      const value = variable === VAR_AUTH_HEADER ? `\${${variable}}` : `Bearer \${${variable}}`;
      return {
        ...runner(client, request, [...head, '--header', `${HEADER_AUTHORIZATION}:${value}`, ...tail]),
        env_vars: [variable],
      };
    }
    return {
      ...runner(client, request, [...head, ...proxyHeaders(request).args, ...tail]),
      env_vars: credentialKeys(request).map((key) => VARIABLE_OF[key]),
    };
  }
  const headers = proxyHeaders(request);
  const env = proxyEnv(request, (key) => literalValue(request, key));
  return { ...runner(client, request, [...head, ...headers.args, ...tail]), env };
}
