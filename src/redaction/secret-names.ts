// The one rule for names (variables, flags, headers, JSON keys, query keys): docs/security.md ("Secret names").
const SECRET_WORD =
  /password|passwd|passphrase|token|secret|authorization|credential|cookie|api[_-]?key|private[_-]?key/i;
/** Short words that make a name secret only as a whole segment (--pass, x-auth, API_KEY, MYSQL_PWD; not --bypass, --author). */
const SECRET_SEGMENT = /(?:^|[-_.\s])(?:pass|pwd|pw|key|auth)(?:[-_.\s]|$)/i;
/** The shell's working folders (POSIX sh sets both): a path, never a password. */
const WORKING_FOLDER = /^(?:OLD)?PWD$/;

export function isSecretName(name: string): boolean {
  if (WORKING_FOLDER.test(name)) return false;
  // accessKey, xAuth: a camelCase word is a segment too.
  return SECRET_WORD.test(name) || SECRET_SEGMENT.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

// ${SVCCTL_LITERAL_DOLLAR:-$}{VAR} is how proxy args escape ${VAR} (src/mcp/render/values.ts): a reference too.
const REFERENCE =
  /\$\{[^}]+\}(?:\{[A-Za-z_][A-Za-z0-9_]*\})?|\{env:[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Z_][A-Z0-9_]*(?![A-Za-z0-9_])/g;

/** ${VAR}, ${env:VAR}, ${input:id}, $VAR, {env:VAR} (alone or after Bearer), <PLACEHOLDER>, ***: names of secrets, not secrets. */
export function isReference(value: string): boolean {
  if (value === '***' || /^<[A-Za-z0-9_ .:-]+>$/.test(value)) return true;
  const rest = value.replace(REFERENCE, '');
  return rest !== value && /^(?:(?:Bearer|Basic|Token)\s*)?$/i.test(rest.trim());
}

/** In a resolved value a ${VAR} left unexpanded by a client names a variable; a bare $X may be the value itself. */
export function namesVariable(value: string): boolean {
  return isReference(value) && !/^\$[A-Z_][A-Z0-9_]*$/.test(value);
}

/** The name of a flag (`--pass`, `-p`-style flags excluded: a single letter says nothing). */
const FLAG = /^--?([A-Za-z][A-Za-z0-9_.-]+)(?:=(.*))?$/s;

export function secretFlag(arg: string): { inline: string | undefined } | undefined {
  const match = FLAG.exec(arg);
  if (!match || !isSecretName(match[1]!)) return undefined;
  return { inline: match[2] };
}

export function secretHeaderArg(arg: string): string | undefined {
  const colon = arg.indexOf(':');
  if (colon <= 0) return undefined;
  const name = arg.slice(0, colon).trim();
  return /^[A-Za-z0-9-]+$/.test(name) && isSecretName(name) ? arg.slice(colon + 1).trim() : undefined;
}

export function valueForms(value: string): string[] {
  const scheme = /^(?:Bearer|Basic|Token)\s+(.+)$/i.exec(value.trim());
  return scheme ? [value, scheme[1]!] : [value];
}

// What `--auth bearer` or svcctl's `--token helper` choose is a method, not a secret.
const METHOD = /^(?:bearer|basic|password|none|oauth2?|token|digest|helper|static|prompt|literal|ref)$/i;
export const isMethodName = (value: string): boolean => METHOD.test(value);

export function secretArgValues(args: readonly string[]): string[] {
  const found: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const flag = secretFlag(arg);
    if (flag?.inline !== undefined) found.push(flag.inline);
    else if (flag && index + 1 < args.length) found.push(args[++index]!);
    const header = secretHeaderArg(arg);
    if (header !== undefined) found.push(...valueForms(header));
  }
  return found.filter((value) => value !== '' && !isReference(value) && !isMethodName(value));
}

export function secretRecordValues(record: Record<string, string>): string[] {
  return Object.entries(record)
    .filter(([name, value]) => value !== '' && isSecretName(name))
    .flatMap(([, value]) => valueForms(value));
}
