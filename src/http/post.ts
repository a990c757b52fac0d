// The body is a Buffer built once, so every attempt sends the identical bytes.
import type { NetworkProblem } from './network-errors.js';
import { backoffDelayMs, isRetryableStatus, retryAfterMs, sleep } from './retry-policy.js';
import type { HttpResponse, Transport } from './transport.js';

export interface PostRequest {
  transport: Transport;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutSeconds: number;
  keepSuccessBody?: boolean;
}

export type PostOutcome =
  | { kind: 'response'; response: HttpResponse; attempts: number }
  | { kind: 'network'; problem: NetworkProblem; attempts: number };

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface RetryOptions {
  retries: number;
  onRetry?: (info: RetryInfo) => void;
  random?: () => number;
  wait?: (ms: number) => Promise<void>;
}

export function postOnce(request: PostRequest): Promise<HttpResponse> {
  const { url, headers, body, keepSuccessBody } = request;
  return request.transport.send({ url, method: 'POST', headers, body, keepSuccessBody });
}

export async function postWithRetries(request: PostRequest, options: RetryOptions): Promise<PostOutcome> {
  const wait = options.wait ?? sleep;
  for (let attempt = 1; ; attempt++) {
    let outcome: PostOutcome;
    let retryAfter: number | undefined;
    let reason: string;
    try {
      const response = await postOnce(request);
      outcome = { kind: 'response', response, attempts: attempt };
      if (!isRetryableStatus(response.status)) return outcome;
      retryAfter = retryAfterMs(response.headers['retry-after']);
      reason = `HTTP ${response.status}`;
    } catch (error) {
      // Loaded on a failure only: most runs never need the table of network errors.
      const { describeNetworkError, errorCode } = await import('./network-errors.js');
      const code = errorCode(error);
      if (code === undefined || code === 'UND_ERR_INVALID_ARG') throw error; // a bug, not the network
      const problem = describeNetworkError(error, request.url, request.timeoutSeconds);
      outcome = { kind: 'network', problem, attempts: attempt };
      if (!problem.retryable) return outcome;
      reason = problem.message;
    }
    if (attempt > options.retries) return outcome;
    const delayMs = retryAfter ?? backoffDelayMs(attempt - 1, options.random);
    options.onRetry?.({ attempt, delayMs, reason });
    await wait(delayMs);
  }
}
