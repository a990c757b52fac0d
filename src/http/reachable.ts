/**
 * Whether a deployment answers at all: one GET of its base URL, ended after a short deadline. Any HTTP
 * answer counts (a 404 is a server that answers); only a connection that fails or stays silent does not.
 * `status`, `mcp install` and `deployment prune` use it to say when a saved deployment points at nothing.
 */
import { describeNetworkError } from './network-errors.js';
import { createTransport } from './transport.js';

/** Long enough for a distant server's TLS handshake, short enough that `status` stays quick. */
export const PROBE_MS = 2000;

export type Reachability = { answers: true; status: number } | { answers: false; reason: string };

export async function probeDeployment(
  env: NodeJS.ProcessEnv,
  baseUrl: string,
  timeoutMs = PROBE_MS,
): Promise<Reachability> {
  let transport;
  try {
    transport = await createTransport({ env, origin: new URL(baseUrl).origin, timeoutMs });
    const response = await transport.send({ url: baseUrl, method: 'GET', headers: { accept: '*/*' } });
    return { answers: true, status: response.status };
  } catch (error) {
    return { answers: false, reason: describeNetworkError(error, baseUrl, timeoutMs / 1000).message };
  } finally {
    await transport?.abort().catch(() => undefined);
  }
}
