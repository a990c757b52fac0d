// A login answer is the service's word for who logged in; one for someone else (a token minted for another
// user, unsigned, or from another identity provider than before) is refused before it is printed or saved.
// svcctl holds no key, so it cannot verify a signature: these are the checks a client without one can make.
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import type { SavedToken } from './credentials-store.js';
import { emailOf, issuerOf, tryDecodeJwt, type DecodedJwt } from './jwt.js';

export interface LoginAnswerFacts {
  baseUrl: string;
  /** The email that logged in. */
  email: string;
  /** The token is to be saved: `previous` is the one saved for this base URL before, if any. */
  saving: boolean;
  previous?: SavedToken | undefined;
}

// Claims are the server's text: quoted as JSON, so a line break or a quote in them cannot fake svcctl's own words.
const quoted = (text: string): string => JSON.stringify(text);

const refused = (problem: string, hint: string): CliError =>
  new CliError(ExitCode.InvalidData, `${problem}; svcctl neither prints nor saves it`, { hint });

const withoutTrailingSlash = (issuer: string): string => issuer.replace(/\/+$/, '');

/** The issuer's host, when it is a URL (RFC 7519 allows any string). */
function issuerHost(issuer: string): string | undefined {
  try {
    return new URL(issuer).host;
  } catch {
    return undefined;
  }
}

function refuseUnsigned(decoded: DecodedJwt, facts: LoginAnswerFacts): void {
  const alg = decoded.header.alg;
  if (typeof alg === 'string' && alg.trim().toLowerCase() !== 'none') return;
  throw refused(
    `the login answer of ${facts.baseUrl} is an unsigned token (${typeof alg === 'string' ? `alg ${quoted(alg)}` : 'no alg'} in its header): anyone could have written it`,
    'a service signs its tokens: check that the base URL is your deployment (svcctl deployment list), and tell its administrators',
  );
}

function refuseOtherUser(decoded: DecodedJwt, facts: LoginAnswerFacts): void {
  const tokenEmail = emailOf(decoded.claims);
  if (tokenEmail === null || tokenEmail.trim().toLowerCase() === facts.email.trim().toLowerCase()) return;
  throw refused(
    `the login answer of ${facts.baseUrl} is a token for ${quoted(tokenEmail)}, not for ${facts.email}, who logged in`,
    'with it you would act as someone else: check that the base URL is your deployment (svcctl deployment list), and tell its administrators',
  );
}

/** The service's MCP server finds the identity provider from the token's issuer (its docs, "Remote MCP server"), which
 * may be the deployment's own host or another one (a hosted provider): only the first is known good. Another host is
 * said once, when no earlier token of this deployment names it; a change from that one is refused. */
function checkIssuer(ctx: Context, decoded: DecodedJwt, facts: LoginAnswerFacts): void {
  const issuer = issuerOf(decoded.claims);
  if (issuer === null) return;
  const earlier = facts.previous ? issuerOf(tryDecodeJwt(facts.previous.access_token)?.claims ?? {}) : null;
  if (earlier !== null && withoutTrailingSlash(earlier) !== withoutTrailingSlash(issuer)) {
    throw refused(
      `the login answer of ${facts.baseUrl} is a token issued by ${quoted(issuer)}, but the token saved for it was issued by ${quoted(earlier)}`,
      `if the deployment moved to another identity provider, run 'svcctl logout' and log in again; else check that the base URL is your deployment`,
    );
  }
  const deploymentHost = new URL(facts.baseUrl).host;
  if (earlier !== null || issuerHost(issuer) === deploymentHost) return;
  const kept = facts.saving
    ? `; if it is not, run 'svcctl logout'. A later login whose token names another issuer is refused`
    : '';
  ctx.out.warn(
    `the token was issued by ${quoted(issuer)}, not by ${deploymentHost}: svcctl cannot tell whether that is your deployment's identity provider${kept}`,
  );
}

/** Throws (exit 3) for an answer that is not for the user who logged in; warns about an issuer on another host. */
export function checkLoginAnswer(ctx: Context, decoded: DecodedJwt, facts: LoginAnswerFacts): void {
  refuseUnsigned(decoded, facts);
  refuseOtherUser(decoded, facts);
  checkIssuer(ctx, decoded, facts);
}
