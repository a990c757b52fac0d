/**
 * `svcctl token [--refresh]`: print the token saved by `login --save` for the
 * base URL; `svcctl token inspect [TOKEN|-]`: decode any JWT (not verified).
 */
import type { Context } from '../context.js';
import { resolveBaseUrl } from '../deployment.js';
import { CliError, ExitCode, invalidData, usageError } from '../errors.js';
import { readAll } from '../input.js';
import { emailWithoutPrompt, passwordGiven, passwordWithoutPrompt, PASSWORD_SOURCES, type CredentialFlags } from '../auth/credentials-input.js';
import { readSavedToken, type SavedToken } from '../auth/credentials-store.js';
import { decodeJwt, describeExpiry, expiryOf, isExpired, issuedAtOf, relativeTime, summarizeToken, timeClaimProblem, tryDecodeJwt } from '../auth/jwt.js';
import { logIn, printToken } from './login.js';

/** --refresh renews a token this close to expiry too: a token that dies in seconds is of no use to a pipeline. */
export const REFRESH_MARGIN_SECONDS = 60;
/** A saved token expiring sooner than this gets a warning. */
const EXPIRY_WARNING_SECONDS = 5 * 60;

export interface TokenOptions extends CredentialFlags {
  refresh: boolean;
  /** Seconds. */
  timeout: number;
}

function savedExpiry(saved: SavedToken): Date | null {
  const decoded = tryDecodeJwt(saved.access_token);
  if (decoded) return expiryOf(decoded.claims);
  return saved.expires_at ? new Date(saved.expires_at) : null;
}

const LOGIN_HINT = "run 'svcctl login --save' (or 'svcctl token --refresh' with the password in SERVICE_PASSWORD, --password-file or --password-stdin)";

export async function runToken(ctx: Context, options: TokenOptions): Promise<void> {
  const baseUrl = resolveBaseUrl(ctx);
  const saved = await readSavedToken(ctx, baseUrl);
  const now = new Date();
  const expiry = saved ? savedExpiry(saved) : null;
  const margin = options.refresh ? REFRESH_MARGIN_SECONDS * 1000 : 0;
  const usable = saved !== undefined && (expiry === null || expiry.getTime() > now.getTime() + margin);

  if (saved && usable) {
    if (expiry && expiry.getTime() - now.getTime() < EXPIRY_WARNING_SECONDS * 1000) {
      ctx.out.warn(`the saved token for ${baseUrl} expires ${relativeTime(expiry, now)}`);
    }
    ctx.out.debug(`token for ${baseUrl} from the credentials file`);
    printToken(ctx, summarizeToken(saved.access_token));
    return;
  }
  const why = saved
    ? `the saved token for ${baseUrl} ${expiry && expiry.getTime() <= now.getTime() ? `expired ${relativeTime(expiry, now)}` : `expires ${relativeTime(expiry!, now)}`}`
    : `not logged in to ${baseUrl} (no saved token)`;
  if (!options.refresh) throw new CliError(ExitCode.AuthRejected, why, { hint: LOGIN_HINT });

  // --refresh: log in again, but only with a password that needs no prompt.
  // Both are checked before --password-stdin is read, so a missing email fails at once.
  const email = emailWithoutPrompt(ctx, options)?.value ?? saved?.email ?? undefined;
  const hasPassword = passwordGiven(ctx, options);
  const password = hasPassword && email ? await passwordWithoutPrompt(ctx, options) : undefined;
  if (!password || !email) {
    const lacking = !hasPassword ? 'password' : 'email';
    const sources = !hasPassword ? PASSWORD_SOURCES : '--email or SERVICE_EMAIL';
    throw new CliError(ExitCode.AuthRejected, `${why}, and --refresh has no ${lacking} to log in again (it never prompts)`, {
      hint: `give the ${lacking} with ${sources}, or run 'svcctl login --save'`,
    });
  }
  ctx.out.info(`${why}; logging in again as ${email}`);
  const { summary } = await logIn(ctx, { baseUrl, email, password: password.value, timeoutSeconds: options.timeout, save: true });
  printToken(ctx, summary);
}

export interface InspectOptions {
  token?: string;
  check: boolean;
}

async function tokenText(ctx: Context, argument: string | undefined): Promise<string> {
  let text: string;
  if (argument !== undefined && argument !== '-') {
    text = argument;
  } else {
    if (ctx.stdin.isTTY) throw usageError('no token: give it as an argument, or pipe it in with -', "e.g. svcctl token | svcctl token inspect -");
    text = (await readAll(ctx.stdin)).toString('utf8');
  }
  // Tokens hold no whitespace; copies often carry a newline or a "Bearer " prefix.
  const token = text.trim().replace(/^Bearer\s+/i, '');
  if (token === '') throw usageError(argument === undefined || argument === '-' ? 'stdin was empty: no token to inspect' : 'the token is empty');
  return token;
}

function when(date: Date | null, now: Date): string {
  return date ? `${date.toISOString()} (${relativeTime(date, now)})` : 'unknown';
}

export async function runTokenInspect(ctx: Context, options: InspectOptions): Promise<void> {
  const { header, claims } = decodeJwt(await tokenText(ctx, options.token));
  const problem = timeClaimProblem(claims);
  if (problem) throw invalidData(`not a valid JWT: ${problem}`, 'exp, nbf and iat are numbers of seconds since 1970 (RFC 7519)');
  const now = new Date();
  const expiresAt = expiryOf(claims);
  const expired = isExpired(claims, now);
  if (ctx.globals.json) {
    ctx.out.jsonResult({ header, claims, expires_at: expiresAt?.toISOString() ?? null, expired });
  } else {
    const lines = [
      'Header:',
      JSON.stringify(header, null, 2),
      'Claims:',
      JSON.stringify(claims, null, 2),
      `Issued:    ${claims.iat === undefined ? 'unknown (no iat claim)' : when(issuedAtOf(claims), now)}`,
      `Expiry:    the token ${describeExpiry(claims, now)}`,
      'Signature: not verified (svcctl has no key; the service verifies it)',
    ];
    ctx.out.result(lines.join('\n'));
  }
  if (options.check && expired) {
    throw new CliError(ExitCode.CheckFailed, `the token ${describeExpiry(claims, now)}`);
  }
}
