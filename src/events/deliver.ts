// Retries resend the identical bytes, so the event id is the same on every attempt: no second event.
import { SIGNATURE_HEADER } from '../core/constants.js';
import { CliError, ExitCode, type ExitCodeValue } from '../core/errors.js';
import { postWithRetries, type PostOutcome, type RetryInfo } from '../http/post.js';
import { parseBody, serviceMessage } from '../http/redact.js';
import { NOT_THIS_ENDPOINT } from '../http/retry-policy.js';
import type { Transport } from '../http/transport.js';
import type { Redactor } from '../redaction/redaction.js';
import { signBody } from './hmac.js';

export interface DeliveryTarget {
  url: string;
  token: string;
  secret: string | undefined;
  transport: Transport;
  retries: number;
  timeoutSeconds: number;
  keepResponse?: boolean;
  onRetry?: (info: RetryInfo) => void;
  redactor: Redactor;
}

const SIGNATURE_NAME = SIGNATURE_HEADER.toLowerCase();

let lastToken: string | undefined;
let lastAuthorization = '';

export function eventHeaders(body: Uint8Array, token: string, secret: string | undefined): Record<string, string> {
  if (token !== lastToken) {
    lastAuthorization = `Bearer ${token}`;
    lastToken = token;
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: lastAuthorization,
  };
  if (secret !== undefined) headers[SIGNATURE_NAME] = signBody(body, secret);
  return headers;
}

export interface DeliveryResult {
  id: string;
  status: number | null;
  attempts: number;
  response: unknown;
  truncated?: true;
  error?: string;
}

export interface Delivery {
  result: DeliveryResult;
  failure?: CliError;
}

function classify(
  outcome: PostOutcome,
  redactor: Redactor,
): { exitCode: ExitCodeValue; message: string; hint?: string } | undefined {
  if (outcome.kind === 'network') {
    const tries = outcome.attempts > 1 ? ` (after ${outcome.attempts} attempts)` : '';
    return {
      exitCode: ExitCode.Unavailable,
      message: redactor.redact(`${outcome.problem.message}${tries}`),
      hint: outcome.problem.hint,
    };
  }
  const { status, body } = outcome.response;
  if (status >= 200 && status < 300) return undefined;
  const said = serviceMessage(body, redactor);
  if (status === 401 || status === 403) {
    return {
      exitCode: ExitCode.AuthRejected,
      message: `the service rejected the credentials (HTTP ${status}): ${said}`,
      hint: 'check the ingest token (SERVICE_INGEST_TOKEN or --token-file) and the HMAC secret of the Webhook connection',
    };
  }
  if (status >= 300 && status < 400) {
    const location = outcome.response.headers.location;
    return {
      exitCode: ExitCode.RequestRejected,
      message: `the service answered with a redirect (HTTP ${status}${location ? ` to ${redactor.redact(String(location))}` : ''})`,
      hint: 'check the base URL (https, host, and the /api path)',
    };
  }
  if (NOT_THIS_ENDPOINT.has(status)) {
    return {
      exitCode: ExitCode.RequestRejected,
      message: `nothing at this address takes events (HTTP ${status}): ${said}`,
      hint: 'check the base URL: it must be the API base of the deployment, ending in /api (e.g. https://acme.example.com/api)',
    };
  }
  if (status < 500 && status !== 408 && status !== 425 && status !== 429) {
    return { exitCode: ExitCode.RequestRejected, message: `the service rejected the event (HTTP ${status}): ${said}` };
  }
  return {
    exitCode: ExitCode.Unavailable,
    message: `the service is failing (HTTP ${status}) after ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}: ${said}`,
  };
}

export function deliverEvent(target: DeliveryTarget, id: string, body: Buffer): Promise<Delivery> {
  const request = {
    transport: target.transport,
    url: target.url,
    headers: eventHeaders(body, target.token, target.secret),
    body,
    timeoutSeconds: target.timeoutSeconds,
    keepSuccessBody: target.keepResponse,
  };
  return postWithRetries(request, { retries: target.retries, onRetry: target.onRetry }).then((outcome) =>
    deliveryOf(target, id, outcome),
  );
}

function deliveryOf(target: DeliveryTarget, id: string, outcome: PostOutcome): Delivery {
  const { redactor } = target;
  const result: DeliveryResult = {
    id,
    status: outcome.kind === 'response' ? outcome.response.status : null,
    attempts: outcome.attempts,
    response:
      outcome.kind === 'response' && target.keepResponse !== false ? parseBody(outcome.response.body, redactor) : null,
  };
  if (outcome.kind === 'response' && outcome.response.truncated) result.truncated = true;
  const problem = classify(outcome, redactor);
  if (!problem) return { result };
  result.error = problem.message;
  if (outcome.kind === 'response') result.response = parseBody(outcome.response.body, redactor);
  return { result, failure: new CliError(problem.exitCode, problem.message, { hint: problem.hint }) };
}
