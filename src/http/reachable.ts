// Whether a deployment is the service: asks its login, no health endpoint being known (architecture.md "Reachable").
import { LOGIN_PATH } from '../core/constants.js';
import { describeNetworkError } from './network-errors.js';
import { htmlSummary } from './redact.js';
import { NOT_THIS_ENDPOINT } from './retry-policy.js';
import { createTransport } from './transport.js';

/** Long enough for a distant server's TLS handshake, short enough that `status` stays quick. */
export const PROBE_MS = 2000;

export type Reachability =
  | { answers: true; status: number; service: true }
  | { answers: true; status: number; service: false; reason: string }
  | { answers: false; reason: string };

export async function probeDeployment(
  env: NodeJS.ProcessEnv,
  baseUrl: string,
  timeoutMs = PROBE_MS,
): Promise<Reachability> {
  let transport;
  const url = `${baseUrl}${LOGIN_PATH}`;
  try {
    transport = await createTransport({ env, origin: new URL(baseUrl).origin, timeoutMs });
    const response = await transport.send({
      url,
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: Buffer.from('{}'),
    });
    const { status } = response;
    const page = htmlSummary(response.body);
    if (!NOT_THIS_ENDPOINT.has(status) && page === undefined && !(status >= 300 && status < 400))
      return { answers: true, status, service: true };
    const what = `POST ${url} answered HTTP ${status}${page ? ` with ${page}` : ''}`;
    return { answers: true, status, service: false, reason: `something answers, but not as the service: ${what}` };
  } catch (error) {
    return { answers: false, reason: describeNetworkError(error, baseUrl, timeoutMs / 1000).message };
  } finally {
    await transport?.abort().catch(() => undefined);
  }
}
