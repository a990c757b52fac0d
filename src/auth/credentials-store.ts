/**
 * The saved login tokens: $XDG_CONFIG_HOME/svcctl/credentials.json (default
 * ~/.config/svcctl/credentials.json), one entry per base URL:
 *
 *   { "version": 1,
 *     "tokens": { "https://acme.example.com/api":
 *       { "access_token": "…", "email": "…", "expires_at": "…" | null, "saved_at": "…",
 *         "password_in_keychain": true (only after login --remember-password) } } }
 *
 * The file holds secrets, so it is written with safe-write (src/mcp/files/
 * safe-write.ts): whole, to a temporary file in the same folder, flushed and
 * renamed over the old one (an interrupted write leaves the old file or the
 * new one, never half of either), always with mode 0600, so a file that once
 * had looser rights is fixed. Its folder is created 0700. Writers take turns
 * on the file's lock (credentials.json.svcctl.lock).
 * A file that does not parse is never overwritten: exit 7 with its path.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CREDENTIALS_FILE_NAME } from '../core/constants.js';
import { configDir } from '../config/config-dir.js';
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { fileWriteReason } from '../fs/reasons.js';
import { fileReadReason } from '../fs/read-input.js';
import { isChangedOnDisk, lockForWriting, readSnapshot, unchangedSince, writeSafely, type FileSnapshot } from '../fs/safe-write.js';

export interface SavedToken {
  access_token: string;
  /** Who logged in (from the token's claims, else the email used to log in). */
  email: string | null;
  expires_at: string | null;
  saved_at: string;
  /** Set by `login --save --remember-password`: the password is in the OS keychain (src/auth/keychain.ts), never here. */
  password_in_keychain?: boolean;
}

interface CredentialsFile {
  version: 1;
  tokens: Record<string, SavedToken>;
}

type PathContext = Pick<Context, 'env' | 'homeDir'>;


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

interface Credentials {
  file: CredentialsFile;
  /** What was read, so safe-write can notice a change by another svcctl right before its rename. */
  snapshot: FileSnapshot;
}

async function readCredentials(path: string): Promise<Credentials> {
  let snapshot: FileSnapshot;
  try {
    snapshot = await readSnapshot(path);
  } catch (error) {
    if (await isFolder(path)) throw unsafeFile(path, 'is a folder, not a file');
    const cause = error instanceof CliError ? error.cause : error;
    if (cause === undefined) throw error;
    throw new CliError(ExitCode.UnsafeConfig, `cannot read the credentials file ${path}: ${fileReadReason(cause)}`);
  }
  if (snapshot.realPath !== snapshot.path) throw linkedCredentials(path, snapshot.realPath);
  const file: CredentialsFile = snapshot.exists ? parseCredentials(snapshot.text, path) : { version: 1, tokens: {} };
  return { file, snapshot };
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}

function warnIfReadableByOthers(ctx: Context, snapshot: FileSnapshot): void {
  if (ctx.platform === 'win32' || snapshot.mode === undefined) return;
  const mode = snapshot.mode & 0o777;
  if (mode & 0o077) {
    ctx.out.warn(`${snapshot.path} can be read by other users (mode ${mode.toString(8)}); it is set to 600 the next time svcctl saves it`);
  }
}

/**
 * Read, change and write the file, holding its lock (svcctl runs take turns).
 * When something else changed the file between our read and our write, the
 * change is applied again to its version (a few times), so two logins to
 * different deployments do not lose a token.
 */
async function update(ctx: Context, change: (file: CredentialsFile) => boolean): Promise<boolean> {
  const path = credentialsPath(ctx);
  const lock = await lockForWriting(path, path, {
    privateFolder: true,
    lock: { onWait: () => ctx.out.info(`waiting for another svcctl to finish writing ${path}…`) },
  });
  try {
    return await updateLocked(path, change);
  } finally {
    await lock.release();
  }
}

async function updateLocked(path: string, change: (file: CredentialsFile) => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { file, snapshot } = await readCredentials(path);
    if (!change(file)) return false;
    if (Object.keys(file.tokens).length === 0) {
      if (!(await unchangedSince(snapshot))) continue;
      await rm(path, { force: true }).catch((error: unknown) => {
        throw new CliError(ExitCode.UnsafeConfig, `cannot remove the credentials file ${path}: ${fileWriteReason(error)}`);
      });
      return true;
    }
    try {
      // mode 0o600 is forced even on an existing file that once had looser rights; a new folder is 0700.
      await writeSafely(snapshot, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, backup: false, privateFolder: true });
    } catch (error) {
      if (isChangedOnDisk(error)) continue;
      throw error;
    }
    return true;
  }
  throw new CliError(ExitCode.UnsafeConfig, `the credentials file ${path} kept changing while svcctl was writing it; nothing was written`, {
    hint: 'another program is writing it at the same time; try again',
  });
}

/** Tokens are written only into a file of svcctl's own, never through a link someone put there. */
function linkedCredentials(path: string, target: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `the credentials file ${path} is a symbolic link (to ${target}); svcctl keeps tokens only in a regular file of its own, and neither reads nor writes it through a link`, {
    hint: `remove the link (rm '${path}') and log in again with --save`,
  });
}

/**
 * The saved token for a base URL, or undefined; it joins the run's known secrets
 * (the tokens of other base URLs are never used, so never sent or echoed).
 * A corrupt file is exit 7, never ignored. This is where loose rights are warned
 * about (a save fixes them without a word); a command that reads the file again
 * passes `warn: false`.
 */
export async function readSavedToken(ctx: Context, baseUrl: string, options: { warn?: boolean } = {}): Promise<SavedToken | undefined> {
  const { file, snapshot } = await readCredentials(credentialsPath(ctx));
  const saved = file.tokens[baseUrl];
  ctx.secrets.add(saved?.access_token);
  if (options.warn !== false) warnIfReadableByOthers(ctx, snapshot);
  return saved;
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

/** The base URLs that have a saved token (no token is read out). */
export async function savedBaseUrls(ctx: PathContext): Promise<string[]> {
  const { file } = await readCredentials(credentialsPath(ctx));
  return Object.keys(file.tokens);
}
