/**
 * Remote (and proxy) mode: connects to the MCP URL with the entry's own
 * headers through the MCP SDK's Streamable HTTP client, as a client would,
 * and asks for `initialize` and `tools/list`. The SDK is loaded only here,
 * when doctor runs. The session is ended afterwards (a server that keeps one
 * session per user would otherwise keep ours).
 */
import { HEADER_AUTHORIZATION } from '../../core/constants.js';
import { cappedFetch } from '../../http/capped-fetch.js';
import { deadlineFetch } from '../../http/deadline-fetch.js';
import { describeNetworkError } from '../../http/network-errors.js';
import { shorten } from '../../http/redact.js';
import type { Redactor } from '../../secrets/redaction.js';
import { VERSION } from '../../core/version.js';
import type { HttpPlan } from './entry-plan.js';
import { fail, pass, type CheckResult } from './types.js';

export interface ProbeOptions {
  timeoutMs: number;
  /** Hides the entry's secrets in anything shown. */
  redactor: Redactor;
  /** Added to the detail line (proxy mode: which URL was checked). */
  note?: string;
}

/** The JSON-RPC error message of an HTTP error body, else the shortened text. */
function bodyMessage(text: string, redactor: Redactor): string {
  const json = text.slice(text.indexOf('{'));
  try {
    const parsed = JSON.parse(json) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') return shorten(redactor.redact(message));
  } catch {
    // not JSON
  }
  return shorten(redactor.redact(text.replace(/^Streamable HTTP error: /, '')));
}

function credentialFix(headers: Record<string, string>): string {
  const bearer = Object.keys(headers).some((name) => name.toLowerCase() === HEADER_AUTHORIZATION.toLowerCase());
  return bearer
    ? 'the access token is wrong or expired: run `svcctl login --save` and export SERVICE_ACCESS_TOKEN="$(svcctl token)" (or reinstall the entry with a fresh token)'
    : 'check the email and password the entry sends (SERVICE_EMAIL, SERVICE_PASSWORD): `svcctl login` tells whether they are accepted';
}

function describeFailure(error: unknown, httpError: boolean, plan: HttpPlan, options: ProbeOptions): { detail: string; fix: string } {
  const seconds = options.timeoutMs / 1000;
  const status = (error as { code?: unknown }).code;
  if (httpError && typeof status === 'number' && status > 0) {
    const message = bodyMessage((error as Error).message, options.redactor);
    if (status === 401 || status === 403) return { detail: `the server rejected the entry's credentials (${status}): ${message}`, fix: credentialFix(plan.headers) };
    if (status === 404 || status === 405) {
      return { detail: `no MCP endpoint at ${plan.url} (${status})`, fix: 'check the URL: the MCP address is the base URL with its final /api replaced by /mcp' };
    }
    return { detail: `the server answered ${status}: ${message}`, fix: status >= 500 ? 'the service is failing: try again later' : 'check the URL and headers of the entry' };
  }
  if (status === -32001) return { detail: `no answer within ${seconds} s`, fix: 'check that the URL is reachable from this machine, or raise --timeout' };
  const problem = describeNetworkError(error, plan.url, seconds);
  return { detail: options.redactor.redact(problem.message), fix: problem.hint ?? 'check that the URL is reachable from this machine' };
}

/** The most of one answer doctor reads: far above any initialize or tools/list result. */
const DOCTOR_BODY_CAP = 1024 * 1024;

export async function probeHttpServer(plan: HttpPlan, options: ProbeOptions): Promise<CheckResult[]> {
  let url: URL;
  try {
    url = new URL(plan.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    return [fail('initialize', `the entry's URL is not an http(s) URL: ${plan.url}`, 'fix the URL in the entry (svcctl mcp install --force rewrites it)')];
  }
  const [{ Client }, { StreamableHTTPClientTransport, StreamableHTTPError }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client = new Client({ name: 'svcctl-doctor', version: VERSION });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: plan.headers },
    // Each HTTP request (headers and whole body) is aborted at --timeout, not only the JSON-RPC wait,
    // and no answer is read past 1 MiB (a server sending without end cannot grow memory).
    fetch: cappedFetch(DOCTOR_BODY_CAP, deadlineFetch(options.timeoutMs)),
  });
  const note = options.note ? `; ${options.note}` : '';
  const results: CheckResult[] = [];
  try {
    try {
      await client.connect(transport, { timeout: options.timeoutMs });
    } catch (error) {
      const { detail, fix } = describeFailure(error, error instanceof StreamableHTTPError, plan, options);
      return [fail('initialize', `${plan.url}: ${detail}${note}`, fix)];
    }
    const server = client.getServerVersion();
    results.push(pass('initialize', `${plan.url} answered${server ? ` (${server.name} ${server.version})` : ''}${note}`));
    try {
      const { tools } = await client.listTools({}, { timeout: options.timeoutMs });
      const names = tools.map((tool) => tool.name);
      results.push(pass('tools', names.length > 0 ? `${names.length} tool${names.length > 1 ? 's' : ''}: ${names.join(', ')}` : 'the server lists no tools'));
    } catch (error) {
      const { detail, fix } = describeFailure(error, error instanceof StreamableHTTPError, plan, options);
      results.push(fail('tools', `tools/list failed: ${detail}`, fix));
    }
    return results;
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}
