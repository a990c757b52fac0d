// One attempt: a login is cheap to repeat by hand, and a wrong password retried could lock an account.
// The password never shows: bodies are redacted with the run's known secrets. Answers and exit codes: docs/login.md.
import { LOGIN_PATH } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { describeNetworkError } from '../http/network-errors.js';
import { NOT_THIS_ENDPOINT } from '../http/retry-policy.js';
import { htmlSummary, serviceMessage, shorten } from '../http/redact.js';
import { createTransport, type HttpResponse } from '../http/transport.js';
import type { Redactor } from '../redaction/redaction.js';
import { maskEntry } from '../redaction/mask-entry.js';
import { apiUrl } from '../config/settings.js';
import { refusePlainHttp } from '../config/plain-http.js';
import { VERSION } from '../core/version.js';

export interface LoginRequest {
  baseUrl: string;
  email: string;
  password: string;
  timeoutSeconds: number;
}

export function shownBody(body: string, redactor: Redactor): string {
  const page = htmlSummary(body);
  if (page !== undefined) return redactor.redact(page);
  let text = body;
  try {
    text = JSON.stringify(maskEntry(JSON.parse(body), redactor));
  } catch {
    // not JSON: shown as text
  }
  const shown = shorten(redactor.redact(text));
  return shown === '' ? '(empty body)' : shown;
}

function statusError(response: HttpResponse, url: string, request: LoginRequest, redactor: Redactor): CliError {
  const { status } = response;
  const said = serviceMessage(response.body, redactor);
  if (status === 401 || status === 403) {
    return new CliError(ExitCode.AuthRejected, 'invalid email or password', {
      hint: `the service answered HTTP ${status} for ${request.email}`,
    });
  }
  if (NOT_THIS_ENDPOINT.has(status)) {
    return new CliError(ExitCode.RequestRejected, `POST ${url} answered HTTP ${status}: ${said}`, {
      hint: `check the base URL (${request.baseUrl}): it must be the API base of the deployment, ending in /api, e.g. https://acme.example.com/api`,
    });
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return new CliError(ExitCode.RequestRejected, `the service rejected the login (HTTP ${status}): ${said}`);
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.location;
    return new CliError(
      ExitCode.Unavailable,
      `the service answered HTTP ${status} (a redirect${location ? ` to ${location}` : ''}); svcctl does not follow redirects with a password`,
      {
        hint: 'if the deployment moved, use its new address as the base URL',
      },
    );
  }
  return new CliError(ExitCode.Unavailable, `the service failed to log in (HTTP ${status}): ${said}`, {
    hint:
      status === 429
        ? 'too many requests: wait a moment and try again'
        : 'try again later; if it persists, the deployment is failing',
  });
}

function tokenFrom(response: HttpResponse, redactor: Redactor): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    throw new CliError(
      ExitCode.Unavailable,
      `the login answer (HTTP ${response.status}) is not JSON: ${shownBody(response.body, redactor)}`,
      {
        hint: 'is the base URL the API base of the deployment (ending in /api)?',
      },
    );
  }
  const token = (parsed as { access_token?: unknown } | null)?.access_token;
  // Printed as it is (svcctl login): a token never holds control characters, so one that does is refused.
  if (typeof token !== 'string' || token.trim() === '' || /[\u0000-\u001f\u007f-\u009f]/.test(token.trim())) {
    throw new CliError(
      ExitCode.Unavailable,
      `the login answer (HTTP ${response.status}) has no access_token: ${shownBody(response.body, redactor)}`,
    );
  }
  return token.trim();
}

export async function requestAccessToken(ctx: Context, request: LoginRequest): Promise<string> {
  const url = apiUrl(request.baseUrl, LOGIN_PATH);
  refusePlainHttp(ctx, request.baseUrl, 'the password');
  ctx.secrets.add(request.password);
  const redactor = ctx.secrets;
  const transport = await createTransport({
    env: ctx.env,
    origin: new URL(url).origin,
    timeoutMs: request.timeoutSeconds * 1000,
  });
  const body = Buffer.from(JSON.stringify({ email: request.email, password: request.password }), 'utf8');
  ctx.out.debug(`POST ${url} (email ${request.email}, password ***)`);
  let response: HttpResponse;
  try {
    response = await transport.send({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': `svcctl/${VERSION}` },
      body,
    });
  } catch (error) {
    const problem = describeNetworkError(error, url, request.timeoutSeconds);
    throw new CliError(ExitCode.Unavailable, redactor.redact(`cannot log in: ${problem.message}`), {
      hint: problem.hint,
    });
  } finally {
    await transport.close();
  }
  ctx.out.debug(`HTTP ${response.status} from ${url}`);
  if (response.status >= 200 && response.status < 300) return ctx.secrets.add(tokenFrom(response, redactor));
  throw statusError(response, url, request, redactor);
}
