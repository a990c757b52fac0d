// The identity provider the MCP endpoint discovers from a token's `iss`, as the real service does.
import type { IncomingMessage } from 'node:http';
import type { Credentials } from './credentials.js';
import {
  BodyTooLarge,
  bearerToken,
  hasJsonContentType,
  readBody,
  sendError,
  sendJson,
  sendTooLarge,
  type LoggedResponse,
} from './http-io.js';
import type { JwtIssuer } from './jwt-issuer.js';

const LOGIN_BODY_LIMIT = 64 * 1024;
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const USERINFO_PATH = '/userinfo';
export const JWKS_PATH = '/.well-known/jwks.json';
export const AUTHORIZE_PATH = '/authorize';
export const TOKEN_PATH = '/token';

// Every field OpenID Connect Discovery 1.0 requires: clients validate the document against it. No ID token is ever
// issued (no browser sign-in: /authorize and /token answer with OAuth errors pointing to the login endpoint), so the
// ID-token algorithm is the RS256 that Discovery section 3 says must be listed, and the key set is empty: the
// access tokens are HS256, whose secret is never published.
export function openIdConfiguration(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    userinfo_endpoint: `${issuer}${USERINFO_PATH}`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: ['sub', 'email', 'iss', 'iat', 'exp'],
  };
}

/** The HS256 secret is never published. */
export const JWKS_DOCUMENT = { keys: [] };

export function handleNoBrowserSignIn(
  res: LoggedResponse,
  error: 'unsupported_response_type' | 'unsupported_grant_type',
): void {
  res.note = 'no browser sign-in in the sandbox';
  sendJson(
    res,
    400,
    {
      error,
      error_description: 'svcctl dev has no browser sign-in: get a token with POST /api/v1/user/login (svcctl login)',
    },
    { 'cache-control': 'no-store' },
  );
}

function invalidToken(res: LoggedResponse, description: string): void {
  res.note = `token rejected: ${description}`;
  sendError(
    res,
    401,
    'invalid or expired token',
    {},
    {
      'www-authenticate': `Bearer realm="svcctl dev", error="invalid_token", error_description="${description}"`,
    },
  );
}

export function handleUserinfo(req: IncomingMessage, res: LoggedResponse, jwt: JwtIssuer): void {
  const token = bearerToken(req);
  if (token === undefined) {
    res.note = 'no bearer token';
    sendError(res, 401, 'missing bearer token', {}, { 'www-authenticate': 'Bearer realm="svcctl dev"' });
    return;
  }
  const result = jwt.verify(token);
  if (!result.ok) return invalidToken(res, result.reason);
  res.note = `user ${result.claims.email}`;
  sendJson(res, 200, { sub: result.claims.sub, email: result.claims.email });
}

async function readLoginBody(
  req: IncomingMessage,
  res: LoggedResponse,
): Promise<{ email: string; password: string } | undefined> {
  if (!hasJsonContentType(req)) {
    sendError(res, 415, 'Content-Type must be application/json');
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readBody(req, LOGIN_BODY_LIMIT)).toString('utf8'));
  } catch (error) {
    if (error instanceof BodyTooLarge) sendTooLarge(res, error.limit);
    else sendError(res, 400, 'the body is not valid JSON');
    return undefined;
  }
  const record = (parsed !== null && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  for (const field of ['email', 'password'] as const) {
    if (typeof record[field] !== 'string' || record[field] === '') {
      sendError(res, 400, `${field}: must be a non-empty string`, { field });
      return undefined;
    }
  }
  return { email: record.email as string, password: record.password as string };
}

export async function handleLogin(
  req: IncomingMessage,
  res: LoggedResponse,
  credentials: Credentials,
  jwt: JwtIssuer,
): Promise<void> {
  const body = await readLoginBody(req, res);
  if (!body) return;
  const user = credentials.checkPassword(body.email, body.password);
  if (!user) {
    res.note = 'wrong email or password';
    sendError(res, 401, 'invalid email or password');
    return;
  }
  const { token, claims } = jwt.issue(user.email);
  res.note = `user ${user.email}`;
  sendJson(
    res,
    200,
    { access_token: token, token_type: 'Bearer', expires_in: claims.exp - claims.iat },
    { 'cache-control': 'no-store' },
  );
}
