/**
 * The values an entry holds for the user's credentials: a reference in the
 * client's own syntax, the literal value, or a VS Code `${input:…}` prompt.
 */
import { ENV_PREFIX } from '../../core/constants.js';
import { envName } from '../../config/settings.js';
import type { EntryRequest, LiteralValues, VariableSyntax, VscodeInput } from '../types.js';
import { usageError } from '../../core/errors.js';

export const VAR_EMAIL = envName('EMAIL');
export const VAR_PASSWORD = envName('PASSWORD');
export const VAR_BASE_URL = envName('BASE_URL');
export const VAR_ACCESS_TOKEN = envName('ACCESS_TOKEN');
/** Carries "Bearer <token>" to mcp-remote, so the --header argument holds no space. */
export const VAR_AUTH_HEADER = `${ENV_PREFIX}AUTH_HEADER`;

/**
 * `${` as written in the mcp-remote --header arguments of a client that itself
 * expands ${VAR} in args (Claude Code, Gemini CLI). `${SVCCTL_LITERAL_DOLLAR:-$}`
 * is the documented `${VAR:-default}` form with an unset variable, so the
 * client turns it into `$`, and the `{NAME}` after it is plain text: mcp-remote
 * receives `${NAME}` and expands it from the env block it is started with.
 * Checked against the clients' own code (Claude Code 2.1.197: one pass of
 * /\$\{([A-Za-z_]\w*(?::-[^}]*)?)\}/g; Gemini CLI 0.61: one pass of
 * /\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g). The alternatives were worse: a
 * plain `${NAME}` is expanded by the client, which puts the secret into
 * mcp-remote's argv (process list); a name the client does not know is kept
 * literally by Claude Code only with a "Missing environment variables"
 * warning (its docs call it a parse failure) and older Gemini builds empty it.
 */
export const LITERAL_DOLLAR_VAR = 'SVCCTL_LITERAL_DOLLAR';
export const ESCAPED_DOLLAR_BRACE = `\${${LITERAL_DOLLAR_VAR}:-$}{`;

/**
 * Prefix of the variables an mcp-remote entry's env block sets for a client
 * that expands ${VAR} in args, has no ${VAR:-default}, and keeps a reference
 * to an unset variable as written (Qwen Code 0.24.4, resolveEnvVarsInString:
 * /\$(?:(\w+)|{([^}]+)})/g, unset → the match itself): `${SVCCTL_HEADER_SERVICE_EMAIL}`
 * in args is unset in the client's environment, so it reaches mcp-remote as
 * written, and mcp-remote reads it from the env block.
 */
export const PROXY_HEADER_PREFIX = 'SVCCTL_HEADER_';

export type CredentialKey = keyof LiteralValues;

export const VARIABLE_OF: Record<CredentialKey, string> = {
  email: VAR_EMAIL,
  password: VAR_PASSWORD,
  token: VAR_ACCESS_TOKEN,
};

/** Literal secrets (not the email) make the file sensitive. */
export const SECRET_KEYS: ReadonlySet<CredentialKey> = new Set(['password', 'token']);

/** A reference to a variable in a client's syntax: the one place that writes references. */
export function variableReference(syntax: VariableSyntax, name: string): string {
  if (syntax === 'env-colon') return `\${env:${name}}`;
  if (syntax === 'dollar-brace') return `\${${name}}`;
  if (syntax === 'env-brace') return `{env:${name}}`;
  throw new Error(`no variable syntax to reference ${name}`);
}

/** The placeholder printed instead of a literal secret (`mcp print` without --show-secrets). */
export const placeholder = (name: string): string => `<${name}>`;

/** Which credentials a mode and auth method need. */
export function credentialKeys(request: Pick<EntryRequest, 'mode' | 'auth'> & Partial<Pick<EntryRequest, 'tokenHelper'>>): CredentialKey[] {
  // svcctl hands the token out itself: the entry holds none.
  if (request.tokenHelper !== undefined) return [];
  if (request.mode !== 'local' && request.auth === 'bearer') return ['token'];
  return ['email', 'password'];
}

/** `<name>-<key>`; `<name>_<key>` with `-` written `_` where ids may hold only word characters (Visual Studio). */
export function inputId(name: string, key: CredentialKey, wordOnly = false): string {
  return wordOnly ? `${name}_${key}`.replaceAll('-', '_') : `${name}-${key}`;
}

const INPUT_LABEL: Record<CredentialKey, string> = { email: 'Email', password: 'Password', token: 'Access token (svcctl login)' };

export function vscodeInputs(name: string, keys: CredentialKey[], wordOnly = false): VscodeInput[] {
  return keys.map((key) => ({
    type: 'promptString',
    id: inputId(name, key, wordOnly),
    description: `${INPUT_LABEL[key]} for the ${name} MCP server`,
    ...(SECRET_KEYS.has(key) ? { password: true } : {}),
  }));
}

/** The literal value of one credential (a placeholder when printing without --show-secrets). */
export function literalValue(request: EntryRequest, key: CredentialKey): string {
  const value = request.literals[key];
  if (value === undefined) throw new Error(`literal ${key} missing from the entry request`);
  return value;
}

/** The value the file holds for one credential (`wordInputIds`: the client's input ids hold only word characters). */
export function credentialValue(request: EntryRequest, syntax: VariableSyntax, key: CredentialKey, wordInputIds = false): string {
  if (request.secrets === 'prompt') return `\${input:${inputId(request.name, key, wordInputIds)}}`;
  if (request.secrets === 'ref') return variableReference(syntax, VARIABLE_OF[key]);
  return literalValue(request, key);
}

/** True when the file will hold a literal password or token. */
export function holdsLiteralSecret(request: EntryRequest): boolean {
  return request.secrets === 'literal' && credentialKeys(request).some((key) => SECRET_KEYS.has(key));
}

/**
 * The package spec as run: a bare name gets the `latest` tag; a spec that
 * already names a version, a tag, a path or a URL is kept as given.
 */
export function packageSpec(spec: string): string {
  const trimmed = spec.trim();
  if (trimmed === '') throw usageError('--package must not be empty');
  if (/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(trimmed)) return `${trimmed}@latest`;
  return trimmed;
}
