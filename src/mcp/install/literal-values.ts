import {
  emailWithoutPrompt,
  resolveEmail,
  resolvePassword,
  type CredentialFlags,
} from '../../auth/credentials-input.js';
import type { Context } from '../../core/context.js';
import { optionalBaseUrl } from '../../config/base-url.js';
import { usageError } from '../../core/errors.js';
import { resolveSecret } from '../../config/secret-sources.js';
import { credentialKeys, placeholder, VARIABLE_OF } from '../render/values.js';
import type { AuthMethod, LiteralValues, Mode } from '../types.js';

export interface LiteralFlags extends CredentialFlags {
  tokenFile?: string;
}

export async function resolveToken(ctx: Context, flags: LiteralFlags): Promise<string> {
  const token = await resolveSecret(ctx, {
    name: 'ACCESS_TOKEN',
    what: 'access token',
    file: { path: flags.tokenFile, flag: '--token-file' },
  });
  if (token !== undefined) return token;
  // The saved token is kept per base URL; without one there is no saved token to look for.
  const baseUrl = optionalBaseUrl(ctx);
  if (baseUrl !== undefined) {
    const { readSavedToken } = await import('../../auth/credentials-store.js');
    const saved = await readSavedToken(ctx, baseUrl);
    if (saved) {
      ctx.out.debug(`access token saved by svcctl login for ${baseUrl}`);
      if (saved.expires_at !== null && Date.parse(saved.expires_at) <= ctx.now().getTime()) {
        ctx.out.warn(
          `the access token saved for ${baseUrl} expired at ${saved.expires_at}; run svcctl login --save again`,
        );
      }
      return saved.access_token;
    }
  }
  throw usageError(
    'no access token for --auth bearer with --secrets literal',
    'pass --token-file <file>, set SERVICE_ACCESS_TOKEN, or run `svcctl login --save` first',
  );
}

export async function resolveLiterals(
  ctx: Context,
  mode: Mode,
  auth: AuthMethod,
  flags: LiteralFlags,
): Promise<LiteralValues> {
  const keys = credentialKeys({ mode, auth });
  const values: LiteralValues = {};
  if (keys.includes('email')) values.email = (await resolveEmail(ctx, flags)).value;
  if (keys.includes('password')) values.password = (await resolvePassword(ctx, flags)).value;
  if (keys.includes('token')) values.token = await resolveToken(ctx, flags);
  return values;
}

/** The email is shown when known without a prompt: it is not a secret. */
export function placeholderLiterals(ctx: Context, mode: Mode, auth: AuthMethod, flags: LiteralFlags): LiteralValues {
  const values: LiteralValues = {};
  for (const key of credentialKeys({ mode, auth })) {
    values[key] =
      key === 'email'
        ? (emailWithoutPrompt(ctx, flags)?.value ?? placeholder(VARIABLE_OF.email))
        : placeholder(VARIABLE_OF[key]);
  }
  return values;
}
