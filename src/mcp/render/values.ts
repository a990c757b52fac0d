import { ENV_PREFIX } from '../../core/constants.js';
import { envName } from '../../config/settings.js';
import { urlSecrets } from '../../config/url-secrets.js';
import type { EntryRequest, LiteralValues, VariableSyntax, VscodeInput } from '../types.js';
import { usageError } from '../../core/errors.js';

export const VAR_EMAIL = envName('EMAIL');
export const VAR_PASSWORD = envName('PASSWORD');
export const VAR_BASE_URL = envName('BASE_URL');
export const VAR_ACCESS_TOKEN = envName('ACCESS_TOKEN');
/** So the --header argument holds no space. */
export const VAR_AUTH_HEADER = `${ENV_PREFIX}AUTH_HEADER`;

// A client that expands ${VAR} in args (Claude Code, Gemini CLI) turns `${SVCCTL_LITERAL_DOLLAR:-$}{NAME}` into
// `${NAME}` for mcp-remote instead of putting the secret in argv; checked against their code (docs/mcp.md).
export const LITERAL_DOLLAR_VAR = 'SVCCTL_LITERAL_DOLLAR';
export const ESCAPED_DOLLAR_BRACE = `\${${LITERAL_DOLLAR_VAR}:-$}{`;

/** Unset in the client's environment, so Qwen Code leaves `${SVCCTL_HEADER_…}` as written for mcp-remote. */
export const PROXY_HEADER_PREFIX = 'SVCCTL_HEADER_';

export type CredentialKey = keyof LiteralValues;

export const VARIABLE_OF: Record<CredentialKey, string> = {
  email: VAR_EMAIL,
  password: VAR_PASSWORD,
  token: VAR_ACCESS_TOKEN,
};

/** The email is not a secret. */
export const SECRET_KEYS: ReadonlySet<CredentialKey> = new Set(['password', 'token']);

/** Read by Node at start only: a client that cleans the environment must get it from the entry (docs/mcp-gui.md). */
export const CA_VARIABLE = 'NODE_EXTRA_CA_CERTS';

/** The one place that writes references. */
export function variableReference(syntax: VariableSyntax, name: string): string {
  if (syntax === 'env-colon') return `\${env:${name}}`;
  if (syntax === 'dollar-brace') return `\${${name}}`;
  if (syntax === 'env-brace') return `{env:${name}}`;
  throw new Error(`no variable syntax to reference ${name}`);
}

/** A reference where the client expands one, else the path itself (a path is not a secret): --secrets literal asks for an entry that needs nothing from the environment. */
export function caCertsValue(syntax: VariableSyntax, request: Pick<EntryRequest, 'secrets' | 'caCerts'>): string {
  if (request.caCerts === undefined) throw new Error('no CA file in the entry request');
  return request.secrets !== 'literal' && syntax !== 'none' ? variableReference(syntax, CA_VARIABLE) : request.caCerts;
}

/** What a local or proxy entry adds to its env: the PATH a written runner needs, and the corporate CA. */
export function runnerEnv(
  syntax: VariableSyntax,
  request: Pick<EntryRequest, 'secrets' | 'caCerts' | 'runner'>,
): Record<string, string> {
  return {
    ...(request.runner !== undefined ? { PATH: request.runner.path } : {}),
    ...(request.caCerts !== undefined ? { [CA_VARIABLE]: caCertsValue(syntax, request) } : {}),
  };
}

export const placeholder = (name: string): string => `<${name}>`;

export function credentialKeys(
  request: Pick<EntryRequest, 'mode' | 'auth'> & Partial<Pick<EntryRequest, 'tokenHelper'>>,
): CredentialKey[] {
  if (request.tokenHelper !== undefined) return [];
  if (request.mode !== 'local' && request.auth === 'bearer') return ['token'];
  return ['email', 'password'];
}

export function inputId(name: string, key: CredentialKey, wordOnly = false): string {
  return wordOnly ? `${name}_${key}`.replaceAll('-', '_') : `${name}-${key}`;
}

const INPUT_LABEL: Record<CredentialKey, string> = {
  email: 'Email',
  password: 'Password',
  token: 'Access token (svcctl login)',
};

export function vscodeInputs(name: string, keys: CredentialKey[], wordOnly = false): VscodeInput[] {
  return keys.map((key) => ({
    type: 'promptString',
    id: inputId(name, key, wordOnly),
    description: `${INPUT_LABEL[key]} for the ${name} MCP server`,
    ...(SECRET_KEYS.has(key) ? { password: true } : {}),
  }));
}

export function literalValue(request: EntryRequest, key: CredentialKey): string {
  const value = request.literals[key];
  if (value === undefined) throw new Error(`literal ${key} missing from the entry request`);
  return value;
}

export function credentialValue(
  request: EntryRequest,
  syntax: VariableSyntax,
  key: CredentialKey,
  wordInputIds = false,
): string {
  if (request.secrets === 'prompt') return `\${input:${inputId(request.name, key, wordInputIds)}}`;
  if (request.secrets === 'ref') return variableReference(syntax, VARIABLE_OF[key]);
  return literalValue(request, key);
}

/** A secret in the MCP URL's query is literal whatever --secrets says: the URL is written as given. */
export function holdsLiteralSecret(request: EntryRequest): boolean {
  if (urlSecrets(request.mcpUrl).length > 0) return true;
  return request.secrets === 'literal' && credentialKeys(request).some((key) => SECRET_KEYS.has(key));
}

/** A spec that already names a version, a tag, a path or a URL is kept as given. */
export function packageSpec(spec: string): string {
  const trimmed = spec.trim();
  if (trimmed === '') throw usageError('--package must not be empty');
  if (/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(trimmed)) return `${trimmed}@latest`;
  return trimmed;
}
