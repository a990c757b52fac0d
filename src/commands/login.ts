/** `svcctl login`: log in, print the access token (stdout), optionally save it. */
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { resolveLoginCredentials, type CredentialFlags } from '../auth/credentials-input.js';
import { readStoredLogin } from '../auth/credentials-store.js';
import { logIn } from '../auth/log-in.js';
import type { TokenSummary } from '../auth/jwt.js';
import { usageError } from '../core/errors.js';

export interface LoginOptions extends CredentialFlags {
  save?: boolean;
  /** --remember-password: keep the password in the OS keychain (with --save). */
  rememberPassword?: boolean;
  /** --remember-deployment: save a sandbox on this computer as a deployment too (others are saved with --save). */
  rememberDeployment?: boolean;
  /** Seconds. */
  timeout: number;
}

/** The new token on stdout: printing it is the command's purpose, so it is not redacted. */
export function printToken(ctx: Context, summary: TokenSummary): void {
  if (ctx.globals.json) ctx.out.jsonResult(summary, { secret: true });
  else ctx.out.result(summary.access_token, { secret: true });
}

export async function runLogin(ctx: Context, options: LoginOptions): Promise<void> {
  // Refused before the password is asked for (plain http to another host, src/config/plain-http.ts).
  const baseUrl = resolveBaseUrl(ctx, 'the password');
  if (options.rememberPassword && !options.save)
    throw usageError('--remember-password needs --save', 'svcctl login --save --remember-password');
  if (options.rememberDeployment && !options.save)
    throw usageError('--remember-deployment needs --save', 'svcctl login --save --remember-deployment');
  const { email, password } = await resolveLoginCredentials(ctx, options);
  // A credentials file, config.toml or keychain that cannot be saved to fails before a token is minted.
  if (options.save) {
    await readStoredLogin(ctx, baseUrl);
    await (await import('../config/deployments-file.js')).readDeployments(ctx);
  }
  const keychainKey = { baseUrl, email: email.value, platform: ctx.platform };
  const keychain = options.rememberPassword ? await import('../auth/keychain.js') : undefined;
  await keychain?.checkKeychain(keychainKey);
  const { summary } = await logIn(ctx, {
    baseUrl,
    email: email.value,
    password: password.value,
    timeoutSeconds: options.timeout,
    save: options.save === true,
    passwordInKeychain: keychain !== undefined,
    rememberDeployment: options.rememberDeployment === true,
  });
  if (keychain) {
    // Keyed like the saved entry (the token's email), which is what a refresh reads.
    await keychain.rememberPassword({ ...keychainKey, email: summary.email ?? email.value }, password.value);
    ctx.out.info(
      `The password of ${email.value} is in the OS keychain: 'svcctl token --refresh' and 'svcctl mcp proxy' log in again with it ('svcctl logout' forgets it).`,
    );
  }
  // Saved on a terminal: the ✓ line says so, and `svcctl token` prints it when wanted; a pipe still gets it.
  if (options.save && !ctx.globals.json && ctx.out.stdout.isTTY === true) return;
  printToken(ctx, summary);
}
