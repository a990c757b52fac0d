/**
 * `svcctl token [--refresh] [--header | --json-headers]`: print the token
 * saved by `login --save` for the base URL (with --refresh, one valid for at
 * least a minute, logging in again when needed: a credential helper like
 * `gh auth token`); `svcctl token inspect [TOKEN|-]`: decode any JWT (not
 * verified). A fresh saved token costs no request and loads no HTTP code.
 */
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { CliError, ExitCode, invalidData, usageError } from '../core/errors.js';
import { readStdin } from '../fs/read-input.js';
import { MAX_SECRET_FILE_BYTES } from '../config/secret-files.js';
import { HEADER_AUTHORIZATION } from '../core/constants.js';
import {
  emailWithoutPrompt,
  passwordGiven,
  passwordWithoutPrompt,
  PASSWORD_SOURCES,
  type CredentialFlags,
} from '../auth/credentials-input.js';
import { readSavedToken } from '../auth/credentials-store.js';
import { freshToken, isUsable, savedExpiry, staleReason } from '../auth/fresh-token.js';
import {
  decodeJwt,
  describeExpiry,
  expiryOf,
  isExpired,
  issuedAtOf,
  relativeTime,
  summarizeToken,
  timeClaimProblem,
} from '../auth/jwt.js';

/** A saved token expiring sooner than this gets a warning. */
const EXPIRY_WARNING_SECONDS = 5 * 60;

export interface TokenOptions extends CredentialFlags {
  refresh?: boolean;
  /** Print `Authorization: Bearer <token>` (a header line, for curl -H @- and header helpers). */
  header?: boolean;
  /** Print `{"Authorization":"Bearer <token>"}` (Claude Code's headersHelper reads a JSON object of headers). */
  jsonHeaders?: boolean;
  /** Seconds. */
  timeout: number;
}

const LOGIN_HINT =
  "run 'svcctl login --save' (or 'svcctl token --refresh' with the password in SERVICE_PASSWORD, --password-file or --password-stdin)";

/** The token on stdout: printing it is the command's purpose, so it is not redacted. */
function printAs(ctx: Context, options: TokenOptions, token: string): void {
  const secret = { secret: true };
  if (options.jsonHeaders) ctx.out.result(JSON.stringify({ [HEADER_AUTHORIZATION]: `Bearer ${token}` }), secret);
  else if (options.header) ctx.out.result(`${HEADER_AUTHORIZATION}: Bearer ${token}`, secret);
  else if (ctx.globals.json) ctx.out.jsonResult(summarizeToken(token), secret);
  else ctx.out.result(token, secret);
}

function checkFormats(ctx: Context, options: TokenOptions): void {
  const chosen = [
    options.header && '--header',
    options.jsonHeaders && '--json-headers',
    ctx.globals.json && '--json',
  ].filter(Boolean);
  if (chosen.length > 1) throw usageError(`${chosen.join(' and ')} cannot be combined: choose one output format`);
}

export async function runToken(ctx: Context, options: TokenOptions): Promise<void> {
  checkFormats(ctx, options);
  const baseUrl = resolveBaseUrl(ctx, options.refresh ? 'the password' : undefined);
  if (options.refresh) {
    // Checked before --password-stdin is read, so a missing email fails at once.
    const email = emailWithoutPrompt(ctx, options)?.value;
    const { token } = await freshToken(ctx, {
      baseUrl,
      timeoutSeconds: options.timeout,
      email,
      hasPassword: passwordGiven(ctx, options),
      password: async () => (await passwordWithoutPrompt(ctx, options))?.value,
      passwordSources: PASSWORD_SOURCES,
    });
    printAs(ctx, options, token);
    return;
  }
  const saved = await readSavedToken(ctx, baseUrl);
  const now = ctx.now();
  if (!isUsable(saved, now, 0))
    throw new CliError(ExitCode.AuthRejected, staleReason(saved, baseUrl, now), { hint: LOGIN_HINT });
  const expiry = savedExpiry(saved);
  if (expiry && expiry.getTime() - now.getTime() < EXPIRY_WARNING_SECONDS * 1000) {
    ctx.out.warn(`the saved token for ${baseUrl} expires ${relativeTime(expiry, now)}`);
  }
  ctx.out.debug(
    `token for ${baseUrl} from ${saved.token_in_keychain ? 'Windows Credential Manager' : 'the credentials file'}`,
  );
  printAs(ctx, options, saved.access_token);
}

export interface InspectOptions {
  token?: string;
  check?: boolean;
}

async function tokenText(ctx: Context, argument: string | undefined): Promise<string> {
  let text: string;
  if (argument !== undefined && argument !== '-') {
    text = argument;
  } else {
    if (ctx.stdin.isTTY)
      throw usageError(
        'no token: give it as an argument, or pipe it in with -',
        'e.g. svcctl token | svcctl token inspect -',
      );
    text = (await readStdin(ctx.stdin, MAX_SECRET_FILE_BYTES)).toString('utf8');
  }
  // Tokens hold no whitespace; copies often carry a newline or a "Bearer " prefix.
  const token = text.trim().replace(/^Bearer\s+/i, '');
  if (token === '')
    throw usageError(
      argument === undefined || argument === '-' ? 'stdin was empty: no token to inspect' : 'the token is empty',
    );
  return token;
}

function when(date: Date | null, now: Date): string {
  return date ? `${date.toISOString()} (${relativeTime(date, now)})` : 'unknown';
}

export async function runTokenInspect(ctx: Context, options: InspectOptions): Promise<void> {
  const { header, claims } = decodeJwt(await tokenText(ctx, options.token));
  const problem = timeClaimProblem(claims);
  if (problem)
    throw invalidData(`not a valid JWT: ${problem}`, 'exp, nbf and iat are numbers of seconds since 1970 (RFC 7519)');
  const now = ctx.now();
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
