// Connects as the newest clients do: `server/discover` first, `initialize` when the server does not recognise it
// (docs/mcp.md, "Protocol revisions"). A 401/403 on the probe is an auth failure, never a sign of the era (the
// SDK's probe policy). A 2025 session is ended afterwards: a server keeping one session per user would keep ours.
import { HEADER_AUTHORIZATION } from '../../core/constants.js';
import { boundedFetch } from '../../http/bounded-fetch.js';
import { loopbackDirect } from '../../http/proxy-env.js';
import { describeNetworkError } from '../../http/network-errors.js';
import { shorten } from '../../http/redact.js';
import type { Redactor } from '../../redaction/redaction.js';
import { VERSION } from '../../core/version.js';
import type { HttpPlan } from './entry-plan.js';
import { fail, pass, type CheckResult } from './types.js';
import { setFromCommand } from '../render/shell-quote.js';
import type { PasteShell } from '../types.js';

export interface ProbeOptions {
  timeoutMs: number;
  /** svcctl's own: whether its fetch goes through a proxy. */
  env: NodeJS.ProcessEnv;
  redactor: Redactor;
  note?: string;
  /** The shell of the line that sets the token again: the platform's (render/shell-quote.ts). */
  shell?: PasteShell;
}

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

function credentialFix(headers: Record<string, string>, shell: PasteShell): string {
  const bearer = Object.keys(headers).some((name) => name.toLowerCase() === HEADER_AUTHORIZATION.toLowerCase());
  return bearer
    ? `the access token is wrong or expired: run \`svcctl login --save\` and \`${setFromCommand(shell, 'SERVICE_ACCESS_TOKEN', 'svcctl token')}\` (or reinstall the entry with a fresh token)`
    : 'check the email and password the entry sends (SERVICE_EMAIL, SERVICE_PASSWORD): `svcctl login` tells whether they are accepted';
}

const SPOKEN = ['2026-07-28', '2025-11-25'];

/** The entry is right, the versions do not meet. */
function versionMismatch(error: unknown, refusedBody = ''): string | undefined {
  const text = `${(error as Error).message ?? ''} ${JSON.stringify((error as { data?: unknown }).data ?? '')} ${refusedBody}`;
  const unsupported =
    /Unsupported protocol version|-32022|ERA_NEGOTIATION_FAILED|did not offer|no mutually supported/i.test(text);
  if (!unsupported) return undefined;
  const offered = /"supported":\s*\[([^\]]*)\]/.exec(text)?.[1]?.replace(/"/g, '').replace(/,/g, ', ');
  return offered ? `it serves ${offered}` : 'it refused both';
}

function describeFailure(
  error: unknown,
  plan: HttpPlan,
  options: ProbeOptions,
  refusedBody?: string,
): { detail: string; fix: string } {
  const seconds = options.timeoutMs / 1000;
  const status = (error as { status?: unknown }).status ?? (error as { code?: unknown }).code;
  const httpStatus = typeof status === 'number' && status > 0 ? status : undefined;
  // Auth settles first, and a failing server is no evidence of the revision either.
  const mismatch =
    httpStatus === 401 || httpStatus === 403 || (httpStatus ?? 0) >= 500
      ? undefined
      : versionMismatch(error, refusedBody);
  if (mismatch !== undefined) {
    return {
      detail: `the server speaks none of the MCP revisions svcctl speaks (${SPOKEN.join(', ')}): ${options.redactor.redact(mismatch)}`,
      fix: 'the entry is not at fault: update svcctl (a newer one speaks newer revisions), or ask the service which revisions it serves',
    };
  }
  if (typeof status === 'number' && status > 0) {
    const message = bodyMessage(refusedBody ?? (error as Error).message, options.redactor);
    if (status === 401 || status === 403)
      return {
        detail: `the server rejected the entry's credentials (${status}): ${message}`,
        fix: credentialFix(plan.headers, options.shell ?? 'bash'),
      };
    if (status === 404 || status === 405) {
      return {
        detail: `no MCP endpoint at ${plan.url} (${status})`,
        fix: 'check the URL: the MCP address is the base URL with its final /api replaced by /mcp',
      };
    }
    return {
      detail: `the server answered ${status}: ${message}`,
      fix: status >= 500 ? 'the service is failing: try again later' : 'check the URL and headers of the entry',
    };
  }
  if (status === 'REQUEST_TIMEOUT' || status === -32001)
    return {
      detail: `no answer within ${seconds} s`,
      fix: 'check that the URL is reachable from this machine, or raise --timeout',
    };
  // A probe that never reached the server says so in its cause; the wrapper's words would suggest a version issue.
  const probeCause =
    error instanceof Error && /^Version negotiation probe failed/.test(error.message) ? error.cause : undefined;
  const problem = describeNetworkError(probeCause ?? error, plan.url, seconds);
  return {
    detail: options.redactor.redact(problem.message),
    fix: problem.hint ?? 'check that the URL is reachable from this machine',
  };
}

export async function probeHttpServer(plan: HttpPlan, options: ProbeOptions): Promise<CheckResult[]> {
  const url = httpUrl(plan.url);
  if (url === undefined) {
    return [
      fail(
        'initialize',
        `the entry's URL is not an http(s) URL: ${plan.url}`,
        'fix the URL in the entry (svcctl mcp install --force rewrites it)',
      ),
    ];
  }
  const { client, transport, refused, closeDirect } = await openClient(url, plan, options);
  const failure = (error: unknown): { detail: string; fix: string } =>
    describeFailure(error, plan, options, refused.text);
  const note = options.note ? `; ${options.note}` : '';
  try {
    try {
      await client.connect(transport, { timeout: options.timeoutMs });
    } catch (error) {
      const { detail, fix } = failure(error);
      return [fail('initialize', `${plan.url}: ${detail}${note}`, fix)];
    }
    const initialized = initializeCheck(client, plan, note);
    refused.text = undefined;
    try {
      const { tools } = await client.listTools({}, { timeout: options.timeoutMs });
      return [initialized, toolsCheck(tools.map((tool) => tool.name))];
    } catch (error) {
      const { detail, fix } = failure(error);
      return [initialized, fail('tools', `tools/list failed: ${detail}`, fix)];
    }
  } finally {
    if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
    await closeDirect();
  }
}

function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

type McpClient = InstanceType<typeof import('@modelcontextprotocol/client').Client>;

/** A client that speaks both eras, over svcctl's own fetch: its deadline, its body cap, no proxy for loopback. */
async function openClient(url: URL, plan: HttpPlan, options: ProbeOptions) {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'svcctl-doctor', version: VERSION },
    { versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.timeoutMs, maxRetries: 0 } } },
  );
  // The SDK's HTTP errors name the status only: the server's own words come from the last refused answer.
  const refused: { text?: string } = {};
  const direct = await loopbackDirect(options.env, plan.url);
  const bounded = boundedFetch(options.timeoutMs, direct.fetch);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: plan.headers },
    // --timeout ends each HTTP request; nothing past 1 MiB (64 KiB of a refusal) is read: an endless answer cannot grow memory.
    fetch: async (input, init) => {
      const response = await bounded(input, init);
      if (!response.ok)
        refused.text = await response
          .clone()
          .text()
          .catch(() => undefined);
      return response;
    },
  });
  return { client, transport, refused, closeDirect: () => direct.close() };
}

/** Who answered, and in which MCP revision, reached how. */
function initializeCheck(client: McpClient, plan: HttpPlan, note: string): CheckResult {
  const server = client.getServerVersion();
  const revision = client.getNegotiatedProtocolVersion();
  const how = client.getProtocolEra() === 'modern' ? 'server/discover' : 'initialize; no 2026-07-28 offered';
  const speaks = revision ? ` in MCP ${revision} (${how})` : '';
  return {
    ...pass('initialize', `${plan.url} answered${server ? ` (${server.name} ${server.version})` : ''}${speaks}${note}`),
    ...(revision ? { protocol: revision } : {}),
  };
}

function toolsCheck(names: string[]): CheckResult {
  return pass(
    'tools',
    names.length > 0
      ? `${names.length} tool${names.length > 1 ? 's' : ''}: ${names.join(', ')}`
      : 'the server lists no tools',
  );
}
