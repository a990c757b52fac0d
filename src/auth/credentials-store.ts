// One token per base URL. It holds secrets: written whole, 0600, under its lock; a file that does not parse is
// never overwritten (exit 7).
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CREDENTIALS_FILE_NAME } from '../core/constants.js';
import { configDir } from '../config/config-dir.js';
import { checkConfigFile, checkConfigFolder, type OwnFilesContext } from '../config/own-files-trust.js';
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { fileWriteReason } from '../fs/reasons.js';
import { fileReadReason } from '../fs/read-input.js';
import {
  isChangedOnDisk,
  lockForWriting,
  readSnapshot,
  unchangedSince,
  writeSafely,
  type FileSnapshot,
} from '../fs/safe-write.js';

export interface SavedToken {
  access_token: string;
  /** Who logged in (from the token's claims, else the email used to log in). */
  email: string | null;
  expires_at: string | null;
  saved_at: string;
  /** Set by `login --save --remember-password`: the password is in the OS keychain (src/auth/keychain.ts), never here. */
  password_in_keychain?: boolean;
  /** On Windows: access_token is in Credential Manager (src/auth/token-keychain.ts), not in the file. */
  token_in_keychain?: boolean;
  /** Read with `keychainGone: 'stale'` when Credential Manager could not give the token (access_token is then ''). */
  token_lost?: string;
}

/** As the file holds it: no access_token where the keychain does. */
type StoredToken = Omit<SavedToken, 'access_token'> & { access_token?: string };

interface CredentialsFile {
  version: 1;
  tokens: Record<string, StoredToken>;
}

export interface SavedWhere {
  path: string;
  /** Credential Manager's name for the token, when it holds it. */
  keychainTarget?: string;
  /** Why the token is in the file on Windows, where Credential Manager was tried first. */
  notInKeychain?: string;
}

export function credentialsPath(ctx: Pick<Context, 'env' | 'homeDir'>): string {
  return join(configDir(ctx), CREDENTIALS_FILE_NAME);
}

function unsafeFile(path: string, problem: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `the credentials file ${path} ${problem}`, {
    hint: `fix it, or delete it (you will need to run 'svcctl login --save' again)`,
  });
}

function isStoredToken(value: unknown): value is StoredToken {
  const entry = value as StoredToken;
  if (!entry || typeof entry !== 'object') return false;
  return entry.token_in_keychain === true || (typeof entry.access_token === 'string' && entry.access_token !== '');
}

function parseCredentials(text: string, path: string): CredentialsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw unsafeFile(path, `is not valid JSON (${(error as Error).message.replace(/\s+/g, ' ').slice(0, 120)})`);
  }
  const file = parsed as CredentialsFile;
  if (
    !file ||
    typeof file !== 'object' ||
    Array.isArray(file) ||
    !file.tokens ||
    typeof file.tokens !== 'object' ||
    Array.isArray(file.tokens)
  ) {
    throw unsafeFile(path, 'does not have the expected shape ({"version":1,"tokens":{…}})');
  }
  for (const [baseUrl, entry] of Object.entries(file.tokens)) {
    if (!isStoredToken(entry)) throw unsafeFile(path, `has an entry for ${baseUrl} without an access_token`);
  }
  return { version: 1, tokens: file.tokens };
}

interface Credentials {
  file: CredentialsFile;
  /** What was read, so safe-write can notice a change by another svcctl right before its rename. */
  snapshot: FileSnapshot;
}

async function readCredentials(ctx: OwnFilesContext): Promise<Credentials> {
  const path = credentialsPath(ctx);
  await checkConfigFolder(ctx);
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
  if (snapshot.exists)
    checkConfigFile(
      ctx,
      `the credentials file ${path}`,
      path,
      { uid: snapshot.uid!, mode: snapshot.mode! },
      "log in again with 'svcctl login --save'",
    );
  const file: CredentialsFile = snapshot.exists ? parseCredentials(snapshot.text, path) : { version: 1, tokens: {} };
  return { file, snapshot };
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

function warnIfReadableByOthers(ctx: Context, snapshot: FileSnapshot): void {
  if (ctx.platform === 'win32' || snapshot.mode === undefined) return;
  const mode = snapshot.mode & 0o777;
  if (mode & 0o077) {
    ctx.out.warn(
      `${snapshot.path} can be read by other users (mode ${mode.toString(8)}); it is set to 600 the next time svcctl saves it`,
    );
  }
}

/** A change by another run between our read and write gets our edit again, so two logins keep both tokens. */
async function update(ctx: Context, change: (file: CredentialsFile) => boolean | Promise<boolean>): Promise<boolean> {
  const path = credentialsPath(ctx);
  // Before the lock: no lock file goes into a folder that is not the user's alone.
  await checkConfigFolder(ctx, { writing: true });
  const lock = await lockForWriting(path, path, {
    privateFolder: true,
    lock: { onWait: () => ctx.out.info(`waiting for another svcctl to finish writing ${path}…`) },
  });
  try {
    return await updateLocked(ctx, change);
  } finally {
    await lock.release();
  }
}

async function updateLocked(
  ctx: Context,
  change: (file: CredentialsFile) => boolean | Promise<boolean>,
): Promise<boolean> {
  const path = credentialsPath(ctx);
  for (let attempt = 0; attempt < 5; attempt++) {
    const { file, snapshot } = await readCredentials(ctx);
    if (!(await change(file))) return false;
    if (Object.keys(file.tokens).length === 0) {
      if (!(await unchangedSince(snapshot))) continue;
      await rm(path, { force: true }).catch((error: unknown) => {
        throw new CliError(
          ExitCode.UnsafeConfig,
          `cannot remove the credentials file ${path}: ${fileWriteReason(error)}`,
        );
      });
      return true;
    }
    try {
      // mode 0o600 is forced even on an existing file that once had looser rights; a new folder is 0700.
      await writeSafely(snapshot, `${JSON.stringify(file, null, 2)}\n`, {
        mode: 0o600,
        backup: false,
        privateFolder: true,
      });
    } catch (error) {
      if (isChangedOnDisk(error)) continue;
      throw error;
    }
    return true;
  }
  throw new CliError(
    ExitCode.UnsafeConfig,
    `the credentials file ${path} kept changing while svcctl was writing it; nothing was written`,
    {
      hint: 'another program is writing it at the same time; try again',
    },
  );
}

function linkedCredentials(path: string, target: string): CliError {
  return new CliError(
    ExitCode.UnsafeConfig,
    `the credentials file ${path} is a symbolic link (to ${target}); svcctl keeps tokens only in a regular file of its own, and neither reads nor writes it through a link`,
    {
      hint: `remove the link (rm '${path}') and log in again with --save`,
    },
  );
}

/**
 * Loose rights are warned about here (a save fixes them silently); a second read passes warn: false. A token kept in
 * Credential Manager that cannot be read is exit 7; with `keychainGone: 'stale'` the login comes back without it
 * (access_token '', token_lost saying why), for a refresh that can log in again.
 */
export async function readSavedToken(
  ctx: Context,
  baseUrl: string,
  options: { warn?: boolean; keychainGone?: 'fail' | 'stale' } = {},
): Promise<SavedToken | undefined> {
  const stored = await readStoredLogin(ctx, baseUrl, options);
  if (stored === undefined) return undefined;
  if (!stored.token_in_keychain) return { ...stored, access_token: stored.access_token! };
  const keychain = await import('./token-keychain.js');
  if (options.keychainGone !== 'stale') {
    const accessToken = await keychain.tokenFromKeychain(ctx, baseUrl);
    ctx.secrets.add(accessToken);
    return { ...stored, access_token: accessToken };
  }
  const read = await keychain.readKeychainToken(ctx, baseUrl);
  if ('lost' in read) return { ...stored, access_token: '', token_lost: read.lost };
  ctx.secrets.add(read.token);
  return { ...stored, access_token: read.token };
}

/** Whose login is saved, and where its token and password are, without reading the token from a keychain. */
export async function readStoredLogin(
  ctx: Context,
  baseUrl: string,
  options: { warn?: boolean } = {},
): Promise<StoredToken | undefined> {
  const { file, snapshot } = await readCredentials(ctx);
  if (options.warn !== false) warnIfReadableByOthers(ctx, snapshot);
  const stored = file.tokens[baseUrl];
  ctx.secrets.add(stored?.access_token);
  return stored;
}

/**
 * On Windows the token goes to Credential Manager when it takes it, else (and elsewhere) into the 0600 file; under the
 * file's lock, so that two logins at once leave the token and the file's expiry of the same one.
 */
export async function saveToken(ctx: Context, baseUrl: string, token: SavedToken): Promise<SavedWhere> {
  const where: SavedWhere = { path: credentialsPath(ctx) };
  const keychain = ctx.platform === 'win32' ? await import('./token-keychain.js') : undefined;
  const { access_token, token_in_keychain: _, token_lost: __, ...rest } = token;
  await update(ctx, async (file) => {
    let stored: StoredToken = { ...rest, access_token };
    if (keychain) {
      where.notInKeychain = await keychain.storeTokenInKeychain(ctx, baseUrl, access_token);
      if (where.notInKeychain === undefined) {
        stored = { ...rest, token_in_keychain: true };
        where.keychainTarget = keychain.keychainTarget(baseUrl);
      } else if (file.tokens[baseUrl]?.token_in_keychain) await dropKeychainToken(ctx, baseUrl);
    }
    file.tokens[baseUrl] = stored;
    return true;
  });
  return where;
}

/** Where the token was forgotten ("from <file>", Credential Manager too), or undefined when none was saved. */
export async function forgetToken(ctx: Context, baseUrl: string): Promise<string | undefined> {
  const path = credentialsPath(ctx);
  let where: string | undefined;
  await update(ctx, async (file) => {
    const removed = file.tokens[baseUrl];
    if (removed === undefined) return false;
    where = `from ${path}`;
    // Under the lock: a refresh that saves a new token in between is not undone.
    if (removed.token_in_keychain && ctx.platform === 'win32' && (await dropKeychainToken(ctx, baseUrl)))
      where = `from Windows Credential Manager and ${path}`;
    delete file.tokens[baseUrl];
    return true;
  });
  return where;
}

/** True once Credential Manager holds no token for baseUrl; a warning says where it may still be. */
async function dropKeychainToken(ctx: Context, baseUrl: string): Promise<boolean> {
  const keychain = await import('./token-keychain.js');
  const why = await keychain.dropTokenFromKeychain(ctx, baseUrl);
  if (why !== undefined)
    ctx.out.warn(
      `the token for ${baseUrl} may still be in ${keychain.KEYCHAIN_NAME} as ${keychain.keychainTarget(baseUrl)} (${why}); remove it there`,
    );
  return why === undefined;
}

export async function savedBaseUrls(ctx: OwnFilesContext): Promise<string[]> {
  const { file } = await readCredentials(ctx);
  return Object.keys(file.tokens);
}
