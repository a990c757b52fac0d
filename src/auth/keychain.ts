// The OS keychain through @napi-rs/keyring (https://github.com/Brooooooklyn/keyring-node); never a plain file.
// On Linux pinned to the Secret Service: keyring-rs would fall back to the kernel keyring, which forgets at logout.
// A native module, kept out of the bundle (scripts/build.mjs) and imported only when a password is needed.
import { CliError, ExitCode } from '../core/errors.js';
import type { KnownSecrets } from '../redaction/known-secrets.js';

type AsyncEntry = import('@napi-rs/keyring').AsyncEntry;

export const KEYCHAIN_SERVICE_PREFIX = 'svcctl:';

export interface KeychainKey {
  baseUrl: string;
  email: string;
  platform: NodeJS.Platform;
}

export function whyUnavailable(error: unknown, platform: NodeJS.Platform): string {
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
    return new AsyncEntry(
      `${KEYCHAIN_SERVICE_PREFIX}${key.baseUrl}`,
      key.email,
      key.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined,
    );
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

export async function checkKeychain(key: KeychainKey): Promise<void> {
  await attempt(key, (entry) => entry.getPassword());
}

/** Why this machine has no OS keychain svcctl can use, or undefined when it has one. */
export async function whyNoKeychain(key: KeychainKey): Promise<string | undefined> {
  return checkKeychain(key).then(
    () => undefined,
    (error: Error) => /no OS keychain is available \((.*)\)$/.exec(error.message)?.[1] ?? error.message,
  );
}

/**
 * How svcctl comes to log in again by itself, for a fix line: `login --save --remember-password` where there is a
 * keychain; where there is none that command is exit 7, so the fix says why and what works instead.
 */
export async function reloginAdvice(platform: NodeJS.Platform): Promise<string> {
  return adviceFor(await keychainMissing(platform));
}

/** An error's hint: what works now (`giveIt`: "give the password with …"), then how to need it no more. */
export async function giveOrRelogin(giveIt: string, platform: NodeJS.Platform): Promise<string> {
  const missing = await keychainMissing(platform);
  return `${giveIt}${missing === undefined ? ', or' : ';'} ${adviceFor(missing)}`;
}

const keychainMissing = (platform: NodeJS.Platform): Promise<string | undefined> =>
  whyNoKeychain({ baseUrl: 'svcctl-check', email: 'svcctl-check', platform });

const adviceFor = (missing: string | undefined): string =>
  missing === undefined
    ? 'run `svcctl login --save --remember-password` once (the password goes to the OS keychain) and svcctl logs in again by itself'
    : `this machine has no OS keychain (${missing}), so svcctl cannot log in again by itself: run \`svcctl login --save\` again when the token expires, or give the client SERVICE_PASSWORD`;

export async function rememberPassword(key: KeychainKey, password: string): Promise<void> {
  await attempt(key, (entry) => entry.setPassword(password));
}

export async function rememberedPassword(key: KeychainKey, secrets: KnownSecrets): Promise<string | undefined> {
  return secrets.add((await attempt(key, (entry) => entry.getPassword())) ?? undefined);
}

export async function forgetPassword(key: KeychainKey): Promise<boolean> {
  return attempt(key, (entry) => entry.deletePassword());
}
