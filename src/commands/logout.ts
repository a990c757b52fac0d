/** `svcctl logout`: forget the token saved for the base URL (the service has no logout endpoint). */
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { credentialsPath, forgetToken, readSavedToken } from '../auth/credentials-store.js';

export async function runLogout(ctx: Context): Promise<void> {
  const baseUrl = resolveBaseUrl(ctx);
  const saved = await readSavedToken(ctx, baseUrl);
  const removed = await forgetToken(ctx, baseUrl);
  if (saved?.password_in_keychain && saved.email) {
    // The token is forgotten even when the keychain cannot be reached; the user is told what is left.
    const { forgetPassword } = await import('../auth/keychain.js');
    await forgetPassword({ baseUrl, email: saved.email, platform: ctx.platform }).then(
      () => ctx.out.info(`The password of ${saved.email} was removed from the OS keychain.`),
      (error: Error) => ctx.out.warn(`the password of ${saved.email} may still be in the OS keychain: ${error.message}`),
    );
  }
  if (ctx.globals.json) ctx.out.jsonResult({ base_url: baseUrl, removed });
  if (removed) {
    ctx.out.success(`Logged out of ${baseUrl}: the saved token was removed from ${credentialsPath(ctx)}`);
    ctx.out.info('The token itself stays valid until it expires: svcctl only forgets it.');
  } else {
    ctx.out.info(`Not logged in to ${baseUrl}: no saved token, nothing to do`);
  }
}
