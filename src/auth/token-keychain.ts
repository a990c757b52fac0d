// On Windows a saved token goes to Credential Manager and credentials.json keeps only whose it is and until when:
// Windows has no file mode svcctl can set (docs/security.md "The token on Windows").
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { whyUnavailable } from './keychain.js';
import { secretStoreOf } from './secret-store.js';

type Where = Pick<Context, 'platform' | 'secretStore'>;

const TOKEN_SERVICE_PREFIX = 'svcctl-token:';
const TOKEN_ACCOUNT = 'access_token';
/** CRED_MAX_CREDENTIAL_BLOB_SIZE in wincred.h: 5 × 512 bytes. */
export const CREDENTIAL_BLOB_MAX_BYTES = 2560;

export const KEYCHAIN_NAME = 'Windows Credential Manager';

export const RELOGIN_HINT = "log in again with 'svcctl login --save' (or forget this login with 'svcctl logout')";

/** How the entry is named in Credential Manager's list (keyring-rs writes the target `<account>.<service>`). */
export const keychainTarget = (baseUrl: string): string => `${TOKEN_ACCOUNT}.${TOKEN_SERVICE_PREFIX}${baseUrl}`;

/** Why the token was not stored there (it then goes to the file), or undefined once it is. */
export async function storeTokenInKeychain(ctx: Where, baseUrl: string, token: string): Promise<string | undefined> {
  const bytes = new TextEncoder().encode(token);
  if (bytes.length > CREDENTIAL_BLOB_MAX_BYTES)
    return `the token is ${bytes.length} bytes, and ${KEYCHAIN_NAME} holds at most ${CREDENTIAL_BLOB_MAX_BYTES}`;
  try {
    await secretStoreOf(ctx).write(`${TOKEN_SERVICE_PREFIX}${baseUrl}`, TOKEN_ACCOUNT, bytes);
    return undefined;
  } catch (error) {
    return `${KEYCHAIN_NAME} refused it (${whyUnavailable(error, ctx.platform)})`;
  }
}

/** The token, or why Credential Manager cannot give it (a sentence naming the base URL). */
export async function readKeychainToken(ctx: Where, baseUrl: string): Promise<{ token: string } | { lost: string }> {
  const saved = `the token saved for ${baseUrl}`;
  if (ctx.platform !== 'win32')
    return { lost: `${saved} is in ${KEYCHAIN_NAME} of the Windows computer that saved it (this is not Windows)` };
  let bytes: Uint8Array | undefined;
  try {
    bytes = await secretStoreOf(ctx).read(`${TOKEN_SERVICE_PREFIX}${baseUrl}`, TOKEN_ACCOUNT);
  } catch (error) {
    return {
      lost: `${saved} is in ${KEYCHAIN_NAME}, which svcctl cannot read (${whyUnavailable(error, ctx.platform)})`,
    };
  }
  const token = bytes === undefined ? '' : new TextDecoder().decode(bytes);
  if (token === '')
    return { lost: `${saved} was kept in ${KEYCHAIN_NAME} (${keychainTarget(baseUrl)}), which no longer has it` };
  return { token };
}

export async function tokenFromKeychain(ctx: Where, baseUrl: string): Promise<string> {
  const read = await readKeychainToken(ctx, baseUrl);
  if ('token' in read) return read.token;
  throw new CliError(ExitCode.UnsafeConfig, read.lost, { hint: RELOGIN_HINT });
}

/** Why it may still be there, or undefined when it is gone (or never was). */
export async function dropTokenFromKeychain(ctx: Where, baseUrl: string): Promise<string | undefined> {
  try {
    await secretStoreOf(ctx).remove(`${TOKEN_SERVICE_PREFIX}${baseUrl}`, TOKEN_ACCOUNT);
    return undefined;
  } catch (error) {
    return whyUnavailable(error, ctx.platform);
  }
}
