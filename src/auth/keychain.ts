/**
 * The password saved by `svcctl login --save --remember-password`, kept in the
 * OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service
 * of GNOME Keyring or KWallet on Linux) through @napi-rs/keyring
 * (https://github.com/Brooooooklyn/keyring-node, a binding of keyring-rs).
 * Never in a plain file: where no keychain can be reached, saving is refused.
 *
 * On Linux the entry is pinned to the Secret Service: keyring-rs would
 * otherwise fall back to the kernel keyring, which forgets everything at
 * logout and so would look saved when it is not.
 *
 * @napi-rs/keyring is a native module with one optional package per platform;
 * it is kept out of the bundle (scripts/build.mjs) and imported only here, only
 * when a password is saved, read or forgotten.
 *
 * Entry: service "svcctl:<base URL>", account "<email>".
 */
import { CliError, ExitCode } from '../core/errors.js';
import type { KnownSecrets } from '../secrets/known-secrets.js';

type AsyncEntry = import('@napi-rs/keyring').AsyncEntry;

export const KEYCHAIN_SERVICE_PREFIX = 'svcctl:';

export interface KeychainKey {
  baseUrl: string;
  email: string;
  platform: NodeJS.Platform;
}

function whyUnavailable(error: unknown, platform: NodeJS.Platform): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/Cannot find (module|package)|Cannot find native binding|MODULE_NOT_FOUND/i.test(message)) {
    return 'the keychain library (@napi-rs/keyring) is not installed for this platform';
  }
  if (platform === 'linux' && /dbus|secret service|org\.freedesktop/i.test(message)) {
    return 'no Secret Service is running (GNOME Keyring or KWallet, reached over the D-Bus session bus)';
  }
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

export function keychainUnavailable(reason: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `cannot remember the password: no OS keychain is available (${reason})`, {
    hint: 'svcctl never writes a password to a plain file; give it to each refresh with --password-file or SERVICE_PASSWORD instead',
  });
}

async function entryFor(key: KeychainKey): Promise<AsyncEntry> {
  try {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return new AsyncEntry(`${KEYCHAIN_SERVICE_PREFIX}${key.baseUrl}`, key.email, key.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined);
  } catch (error) {
    throw keychainUnavailable(whyUnavailable(error, key.platform));
  }
}

async function attempt<T>(key: KeychainKey, work: (entry: AsyncEntry) => Promise<T>): Promise<T> {
  const entry = await entryFor(key);
  try {
    return await work(entry);
  } catch (error) {
    throw keychainUnavailable(whyUnavailable(error, key.platform));
  }
}

/** Fails with exit 7 and the reason when the keychain cannot be used (checked before a login). */
export async function checkKeychain(key: KeychainKey): Promise<void> {
  await attempt(key, (entry) => entry.getPassword());
}

export async function rememberPassword(key: KeychainKey, password: string): Promise<void> {
  await attempt(key, (entry) => entry.setPassword(password));
}

/** The remembered password, or undefined when none is saved; it joins the run's known secrets. */
export async function rememberedPassword(key: KeychainKey, secrets: KnownSecrets): Promise<string | undefined> {
  return secrets.add((await attempt(key, (entry) => entry.getPassword())) ?? undefined);
}

/** Forgets the remembered password; false when none was saved. */
export async function forgetPassword(key: KeychainKey): Promise<boolean> {
  return attempt(key, (entry) => entry.deletePassword());
}
