// The one masking of what svcctl shows of an entry or a URL (mcp get, list, command, doctor, status, deployment list):
// by value (the run's known secrets) and by name (query keys, headers, flags, variables), references such as ${VAR}
// kept. The rules and their reasons: docs/security.md ("Entries and URLs as shown").
import { hideUrlPasswords, type Redactor } from './redaction.js';
import { isMethodName, isReference, isSecretName } from './secret-names.js';

const MASK = '***';

// Names a query key has for a secret that the general rule does not know: Azure SAS `sig`, AWS and Google signed URLs,
// an OAuth authorization `code`.
const SECRET_QUERY_KEY = /^(?:sig|signature|x-amz-signature|x-goog-signature|code|jwt)$/i;

export const isSecretQueryKey = (key: string): boolean => isSecretName(key) || SECRET_QUERY_KEY.test(key);

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The value held under a secret's name, as shown: keeps "Bearer " and the like (which scheme a header uses is no
 * secret, and says what the value was), a reference and a method's name. unified-diff.ts masks its lines with it too.
 * */
export function masked(value: string): string {
  if (value === '' || isReference(value) || isMethodName(value)) return value;
  const scheme = /^(?:Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
  return isReference(value.slice(scheme.length)) ? value : `${scheme}${MASK}`;
}

function maskPairs(pairs: string): string {
  return pairs.replace(/([^=&;]+)=([^&;]*)/g, (pair, key: string, value: string) =>
    isSecretQueryKey(decoded(key)) && value !== '' && !isReference(decoded(value)) ? `${key}=${MASK}` : pair,
  );
}

/** A URL: the password of its userinfo, the values of its query keys named as secrets, and its fragment (in a URL of an
 * API, a token more often than an anchor). */
export function maskUrl(url: string): string {
  const shown = hideUrlPasswords(url);
  const hash = shown.indexOf('#');
  const beforeHash = hash === -1 ? shown : shown.slice(0, hash);
  const fragment = hash === -1 || hash === shown.length - 1 ? shown.slice(hash === -1 ? shown.length : hash) : '#***';
  const query = beforeHash.indexOf('?');
  if (query === -1) return beforeHash + fragment;
  return `${beforeHash.slice(0, query + 1)}${maskPairs(beforeHash.slice(query + 1))}${fragment}`;
}

const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"`<>]+/g;

/** A header given as one argument or line (mcp-remote --header "Name: value", curl -H). */
const HEADER_LINE = /^([A-Za-z0-9-]+)(\s*:\s*)(.*)$/s;

/** NAME=value, as `env` and a shell take a variable. */
const VARIABLE_LINE = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/** Free text (a check's detail, a shell line): each URL in it. */
export function maskText(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, maskUrl) : hideUrlPasswords(text);
}

/** One argument that holds its own name and value: a header line or a variable; else the URLs in it. */
export function maskWord(word: string): string {
  const header = HEADER_LINE.exec(word);
  if (header && isSecretName(header[1]!)) return `${header[1]}${header[2]}${masked(header[3]!)}`;
  const variable = VARIABLE_LINE.exec(word);
  if (variable && isSecretName(variable[1]!)) return `${variable[1]}=${masked(variable[2]!)}`;
  return maskText(word);
}

const FLAG = /^(--?[A-Za-z][A-Za-z0-9_.-]*)(?:=(.*))?$/s;

// A flag named for a secret whose value only says where the secret is: a file, a variable, a command to run.
const POINTS_ELSEWHERE = /[-_.](?:file|path|dir|stdin|env|var|cmd|command|helper|url)$/i;

function secretValueFlag(arg: string): { name: string; inline: string | undefined } | undefined {
  const match = FLAG.exec(arg);
  if (!match) return undefined;
  const name = match[1]!.replace(/^-+/, '');
  if (name.length < 2 || !isSecretName(name) || POINTS_ELSEWHERE.test(name)) return undefined;
  return { name: match[1]!, inline: match[2] };
}

/** A command's arguments: `--password X`, `--password=X`, `--api-key=X`, `--token X`, headers, variables, URLs. */
export function maskArgs(args: readonly string[]): string[] {
  const shown: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const flag = secretValueFlag(arg);
    if (flag?.inline !== undefined) shown.push(`${flag.name}=${masked(flag.inline)}`);
    else if (flag && index + 1 < args.length && !args[index + 1]!.startsWith('-')) {
      shown.push(arg, masked(args[++index]!));
    } else shown.push(maskWord(arg));
  }
  return shown;
}

// Codex names variables, not values, under secret-looking keys: `bearer_token_env_var`, `env_http_headers.Authorization`.
const NAMES_A_VARIABLE = /env_vars?$/i;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `value` under `key` (in `parent`) is to be masked: a secret's name that does not hold a variable's name. */
export function holdsSecretValue(value: string, key: string, parent: string | undefined): boolean {
  const namesVariable = VARIABLE_NAME.test(value) && (NAMES_A_VARIABLE.test(key) || parent === 'env_http_headers');
  return isSecretName(key) && !namesVariable;
}

function maskString(value: string, key: string | undefined, parent: string | undefined): string {
  if (key !== undefined && holdsSecretValue(value, key, parent)) return masked(value);
  return maskWord(value);
}

/** An entry as a client's file holds it (or any value of it): strings under a secret's name, headers, variables,
 * arguments and URLs by the rules above, then every known secret wherever it stands. */
export function maskEntry(value: unknown, known: Redactor, key?: string, parent?: string): unknown {
  if (typeof value === 'string') return known.redact(maskString(value, key, parent));
  if (Array.isArray(value)) {
    const words = value.every((item) => typeof item === 'string')
      ? maskArgs(value as string[])
      : value.map((item: unknown) => (typeof item === 'string' ? maskWord(item) : item));
    return words.map((item) => (typeof item === 'string' ? known.redact(item) : maskEntry(item, known, key, parent)));
  }
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskEntry(item, known, name, key)]));
  return value;
}
