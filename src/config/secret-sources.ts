// One trailing newline is dropped, as `docker login --password-stdin` does. Control characters are refused: they cannot
// travel in an HTTP header and would surface as a confusing network error. Each value joins ctx.secrets at once.
import { resolve } from 'node:path';
import type { SettingName } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import type { Output } from '../core/output.js';
import type { KnownSecrets } from '../redaction/known-secrets.js';
import { describeSource, readSetting } from './settings.js';
import { fileReadError, readStdin } from '../fs/read-input.js';
import { UnreadableFileError } from '../fs/regular-file.js';
import {
  checkSecretFileMode,
  MAX_SECRET_FILE_BYTES,
  readSecretFileText,
  unreadableSecretFile,
} from './secret-files.js';

export function stripOneNewline(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  if (text.endsWith('\n')) return text.slice(0, -1);
  return text;
}

export function warnSurroundingWhitespace(value: string, what: string, out: Output): void {
  if (value !== value.trim()) {
    out.warn(`${what} starts or ends with whitespace; it is used as is (only one trailing newline is removed)`);
  }
}

// C0 controls except tab, and DEL: not allowed in an HTTP header value (RFC 9110 field-value).
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

function describeControl(char: string): string {
  if (char === '\n' || char === '\r') return 'a line break';
  if (char === '\0') return 'a NUL character';
  return `a control character (U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
}

/** `where` names the secret and its origin, never the value. */
export function checkSecretCharacters(value: string, where: string, hint?: string): void {
  const found = CONTROL.exec(value);
  if (!found) return;
  throw usageError(
    `${where} contains ${describeControl(found[0])}`,
    hint ?? 'a secret must be one line: only one trailing newline is removed',
  );
}

export function describeSecretSource(secret: ResolvedSecret, what: string): string {
  return secret.source.kind === 'file' ? `the ${what} in ${secret.source.path}` : `${secret.source.name} (the ${what})`;
}

export function checkHeaderSafe(secret: ResolvedSecret, what: string): void {
  if (/^[\t\x20-\x7e]*$/.test(secret.value)) return; // HTTP allows tab and visible ASCII
  throw usageError(
    `${describeSecretSource(secret, what)} contains a character that cannot be sent in an HTTP header (only printable ASCII and tab can)`,
    'copy the token again from where it was shown',
  );
}

/** `path` as the user gave it (messages name it so), read relative to `cwd`, unless read before the arguments were parsed. */
export async function readSecretFile(
  path: string,
  what: string,
  flag: string,
  cwd: string,
  platform: NodeJS.Platform,
  known?: KnownSecrets,
): Promise<string> {
  const absolute = resolve(cwd, path);
  await checkSecretFileMode(path, absolute, flag, platform);
  let text = known?.takeFileText(absolute);
  try {
    text ??= await readSecretFileText(absolute);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw unreadableSecretFile(path, flag, error);
    throw fileReadError(path, error, flag);
  }
  const value = stripOneNewline(text);
  if (value === '') throw usageError(`${flag} '${path}' is empty: it must hold the ${what}`);
  checkSecretCharacters(value, `the ${what} in ${path}`);
  return value;
}

export async function readSecretStdin(ctx: Context, what: string, flag: string): Promise<string> {
  if (ctx.stdin.isTTY) {
    throw usageError(`${flag} reads the ${what} from stdin, but stdin is a terminal`, `pipe it in: ${flag} < file`);
  }
  const value = ctx.secrets.add(
    stripOneNewline((await readStdin(ctx.stdin, MAX_SECRET_FILE_BYTES, flag)).toString('utf8')),
  );
  if (value === '') throw usageError(`${flag} was given but stdin was empty: it must hold the ${what}`);
  checkSecretCharacters(value, `the ${what} read from stdin`);
  return value;
}

export interface SecretRequest {
  name: SettingName;
  what: string;
  file?: { path: string | undefined; flag: string };
}

export type SecretSource = { kind: 'file'; path: string; flag: string } | { kind: 'env'; name: string };

export interface ResolvedSecret {
  value: string;
  source: SecretSource;
}

export async function resolveSecretWithSource(
  ctx: Context,
  request: SecretRequest,
): Promise<ResolvedSecret | undefined> {
  const { file } = request;
  if (file?.path !== undefined) {
    const value = ctx.secrets.add(
      await readSecretFile(file.path, request.what, file.flag, ctx.cwd, ctx.platform, ctx.secrets),
    );
    ctx.out.debug(`${request.what} from ${file.flag}`);
    warnSurroundingWhitespace(value, `the ${request.what} in ${file.path}`, ctx.out);
    return { value, source: { kind: 'file', path: file.path, flag: file.flag } };
  }
  const setting = readSetting(ctx.env, request.name);
  if (!setting) return undefined;
  ctx.secrets.add(setting.value);
  ctx.out.debug(describeSource(setting, request.what));
  checkSecretCharacters(setting.value, `${setting.source} (the ${request.what})`, 'check how the variable is set');
  warnSurroundingWhitespace(setting.value, `${setting.source}`, ctx.out);
  return { value: setting.value, source: { kind: 'env', name: setting.source } };
}

export async function resolveSecret(ctx: Context, request: SecretRequest): Promise<string | undefined> {
  return (await resolveSecretWithSource(ctx, request))?.value;
}
