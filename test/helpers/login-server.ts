/** A login endpoint on 127.0.0.1 (built on the recording server) that accepts one user and issues test JWTs. */
import { makeJwt, nowPlus } from './jwt.js';
import { startRecordingServer, type RecordingServer, type Responder } from './recording-server.js';

export const EMAIL = 'ops@acme.example';
export const PASSWORD = 'pa55-W0rd!secret';

export interface LoginServer extends RecordingServer {
  /** Tokens issued, in order. */
  issued: string[];
  /** The parsed bodies of the login requests. */
  logins(): Array<{ email?: unknown; password?: unknown }>;
}

export async function startLoginServer(
  options: { email?: string; password?: string; ttlSeconds?: number } = {},
): Promise<LoginServer> {
  const email = options.email ?? EMAIL;
  const password = options.password ?? PASSWORD;
  const issued: string[] = [];
  let origin = '';
  const responder: Responder = (request) => {
    if (request.method !== 'POST' || request.url !== '/api/v1/user/login') return { status: 404, body: 'Not Found' };
    let body: { email?: unknown; password?: unknown } = {};
    try {
      body = JSON.parse(request.body.toString('utf8'));
    } catch {
      return { status: 400, body: '{"error":"body is not JSON"}' };
    }
    if (body.email !== email || body.password !== password) {
      return { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid credentials"}' };
    }
    const token = makeJwt({
      iss: origin,
      email,
      sub: 'user-1',
      iat: nowPlus(0),
      exp: nowPlus(options.ttlSeconds ?? 3600),
    });
    issued.push(token);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token }),
    };
  };
  const server = await startRecordingServer(responder);
  origin = server.origin;
  return {
    ...server,
    issued,
    logins: () => server.requests.map((r) => JSON.parse(r.body.toString('utf8'))),
  };
}
