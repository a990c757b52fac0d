// The service docs' generic shapes exactly, with no client adaptation; TOML holds literals only (docs/mcp.md).
import { MCP_PROXY_PACKAGE, PACKAGE_RUNNER, PACKAGE_RUNNER_YES_FLAG } from '../../core/constants.js';
import type { EntryRequest, GenericFormat, VariableSyntax } from '../types.js';
import { remoteHeaders } from './json-clients.js';
import { credentialValue, packageSpec, runnerEnv, VAR_BASE_URL, VAR_EMAIL, VAR_PASSWORD } from './values.js';

type Entry = Record<string, unknown>;

export function genericSyntax(format: GenericFormat): VariableSyntax {
  if (format === 'servers') return 'env-colon';
  if (format === 'mcpServers') return 'dollar-brace';
  return 'none';
}

export function genericEntry(format: GenericFormat, request: EntryRequest): Entry {
  const syntax = genericSyntax(format);
  const value = (key: 'email' | 'password' | 'token'): string => credentialValue(request, syntax, key);
  switch (request.mode) {
    case 'local':
      return {
        command: PACKAGE_RUNNER,
        args: [PACKAGE_RUNNER_YES_FLAG, packageSpec(request.package)],
        env: {
          [VAR_EMAIL]: value('email'),
          [VAR_PASSWORD]: value('password'),
          [VAR_BASE_URL]: request.baseUrl,
          ...runnerEnv(syntax, request),
        },
      };
    case 'remote':
      return { type: 'http', url: request.mcpUrl, headers: remoteHeaders(request, value) };
    case 'proxy': {
      const headers = remoteHeaders(request, value);
      const args = [MCP_PROXY_PACKAGE, request.mcpUrl];
      for (const [name, headerValue] of Object.entries(headers)) args.push('--header', `${name}: ${headerValue}`);
      const env = runnerEnv(syntax, request);
      return { command: PACKAGE_RUNNER, args, ...(Object.keys(env).length > 0 ? { env } : {}) };
    }
  }
}

export function genericServersKey(format: GenericFormat): string {
  if (format === 'servers') return 'servers';
  if (format === 'toml') return 'mcp_servers';
  return 'mcpServers';
}
