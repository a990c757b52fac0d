/**
 * The saved login tokens: $XDG_CONFIG_HOME/svcctl/credentials.json (default
 * ~/.config/svcctl/credentials.json), one entry per base URL:
 *
 *   { "version": 1,
 *     "tokens": { "https://acme.example.com/api":
 *       { "access_token": "…", "email": "…", "expires_at": "…" | null, "saved_at": "…" } } }
 *
 * The file holds secrets, so it is always written whole to a temporary file
 * created with mode 0600 in the same folder, flushed to disk and renamed over
 * the old one (an interrupted write leaves the old file or the new one, never
 * half of either), then chmod 0600 explicitly: `mode` on open applies only
 * when a file is created, so a file that once had looser rights is fixed.
 * A file that does not parse is never overwritten: exit 7 with its path.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { CONFIG_DIR_NAME, CREDENTIALS_FILE_NAME } from '../constants.js';
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { fileWriteReason } from '../fs-reasons.js';
import { fileReadReason } from '../input.js';

export interface SavedToken {
  access_token: string;
  /** Who logged in (from the token's claims, else the email used to log in). */
  email: string | null;
  expires_at: string | null;
  saved_at: string;
}

interface CredentialsFile {
  version: 1;
  tokens: Record<string, SavedToken>;
}

type PathContext = Pick<Context, 'env' | 'homeDir'>;

/** The folder of svcctl's own files: $XDG_CONFIG_HOME/svcctl, else ~/.config/svcctl. */
export function configDir(ctx: PathContext): string {
  const xdg = ctx.env.XDG_CONFIG_HOME;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(ctx.homeDir, '.config');
  return join(base, CONFIG_DIR_NAME);
}

export function credentialsPath(ctx: PathContext): string {
  return join(configDir(ctx), CREDENTIALS_FILE_NAME);
}

function unsafeFile(path: string, problem: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `the credentials file ${path} ${problem}`, {
    hint: `fix it, or delete it (you will need to run 'svcctl login --save' again)`,
  });
}

function isSavedToken(value: unknown): value is SavedToken {
  const entry = value as SavedToken;
  return !!entry && typeof entry === 'object' && typeof entry.access_token === 'string' && entry.access_token !== '';
}

function parseCredentials(text: string, path: string): CredentialsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw unsafeFile(path, `is not valid JSON (${(error as Error).message.replace(/\s+/g, ' ').slice(0, 120)})`);
  }
  const file = parsed as CredentialsFile;
  if (!file || typeof file !== 'object' || Array.isArray(file) || !file.tokens || typeof file.tokens !== 'object' || Array.isArray(file.tokens)) {
    throw unsafeFile(path, 'does not have the expected shape ({"version":1,"tokens":{…}})');
  }
  for (const [baseUrl, entry] of Object.entries(file.tokens)) {
    if (!isSavedToken(entry)) throw unsafeFile(path, `has an entry for ${baseUrl} without an access_token`);
  }
  return { version: 1, tokens: file.tokens };
}

interface Snapshot {
  file: CredentialsFile;
  /** The exact text read, to notice a change by another svcctl before our rename. */
  text: string | undefined;
}

async function readSnapshot(path: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file: { version: 1, tokens: {} }, text: undefined };
    if (code === 'EISDIR') throw unsafeFile(path, 'is a folder, not a file');
    throw new CliError(ExitCode.UnsafeConfig, `cannot read the credentials file ${path}: ${fileReadReason(error)}`);
  }
  return { file: parseCredentials(text, path), text };
}

async function warnIfReadableByOthers(ctx: Context, path: string): Promise<void> {
  if (ctx.platform === 'win32') return;
  try {
    const mode = (await stat(path)).mode & 0o777;
    if (mode & 0o077) {
      ctx.out.warn(`${path} can be read by other users (mode ${mode.toString(8)}); it is set to 600 the next time svcctl saves it`);
    }
  } catch {
    // gone since we read it: nothing to warn about
  }
}

async function currentText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes the whole file atomically with mode 0600 (see the module comment). */
async function writeAtomically(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${CREDENTIALS_FILE_NAME}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.chmod(0o600);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await chmod(path, 0o600);
  await syncDir(dir);
}

/** Flushes the rename itself to disk (a no-op where folders cannot be opened, such as Windows). */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

/**
 * Read, change and write the file. When another svcctl changed the file
 * between our read and our write, the change is applied again to its version
 * (a few times), so two logins to different deployments do not lose a token.
 */
async function update(ctx: Context, change: (file: CredentialsFile) => boolean): Promise<boolean> {
  const path = credentialsPath(ctx);
  for (let attempt = 0; attempt < 5; attempt++) {
    const snapshot = await readSnapshot(path);
    if (!change(snapshot.file)) return false;
    if ((await currentText(path)) !== snapshot.text) continue;
    try {
      if (Object.keys(snapshot.file.tokens).length === 0) await rm(path, { force: true });
      else await writeAtomically(path, `${JSON.stringify(snapshot.file, null, 2)}\n`);
    } catch (error) {
      throw new CliError(ExitCode.UnsafeConfig, `cannot write the credentials file ${path}: ${fileWriteReason(error)}`);
    }
    return true;
  }
  throw new CliError(ExitCode.UnsafeConfig, `the credentials file ${path} kept changing while svcctl was writing it`, {
    hint: 'another svcctl is saving tokens at the same time; try again',
  });
}

/**
 * The saved token for a base URL, or undefined. A corrupt file is exit 7, never ignored.
 * Each command reads the file this way once, so this is where loose rights are warned about
 * (a save fixes them without a word).
 */
export async function readSavedToken(ctx: Context, baseUrl: string): Promise<SavedToken | undefined> {
  const path = credentialsPath(ctx);
  const { file, text } = await readSnapshot(path);
  if (text !== undefined) await warnIfReadableByOthers(ctx, path);
  return file.tokens[baseUrl];
}

/** Saves (or replaces) the token of a base URL; returns the file's path. */
export async function saveToken(ctx: Context, baseUrl: string, token: SavedToken): Promise<string> {
  await update(ctx, (file) => {
    file.tokens[baseUrl] = token;
    return true;
  });
  return credentialsPath(ctx);
}

/** Forgets the token of a base URL; false when none was saved. The file is removed when it holds no more tokens. */
export async function forgetToken(ctx: Context, baseUrl: string): Promise<boolean> {
  return update(ctx, (file) => {
    if (!(baseUrl in file.tokens)) return false;
    delete file.tokens[baseUrl];
    return true;
  });
}
