/**
 * `svcctl mcp proxy [--mcp-url URL] [--auth bearer|password]`: a stdio MCP
 * server for clients that run commands, forwarding every message to the
 * remote MCP server over Streamable HTTP with fresh credentials on each
 * request (like mcp-remote, but with no secret in its arguments and no token
 * in the client's config that expires). The MCP SDK is loaded only by this
 * command. Credentials are checked once before stdin is read, so a client
 * that starts a proxy with nothing to log in with sees why at once (exit 4).
 */
import type { Readable, Writable } from 'node:stream';
import {
  emailWithoutPrompt,
  passwordGiven,
  passwordWithoutPrompt,
  type CredentialFlags,
} from '../auth/credentials-input.js';
import type { Context } from '../core/context.js';
import { optionalBaseUrl, resolveBaseUrl, resolveMcpUrl } from '../config/base-url.js';
import { usageError } from '../core/errors.js';
import { foreign } from '../core/output.js';
import { envName } from '../config/settings.js';
import { loopbackDirect } from '../http/proxy-env.js';
import { authFetch } from '../mcp/proxy/auth-fetch.js';
import { runBridge } from '../mcp/proxy/bridge.js';
import { bearerSource, passwordSource, type CredentialSource } from '../mcp/proxy/credentials.js';

export interface McpProxyOptions extends Omit<CredentialFlags, 'passwordStdin'> {
  /** bearer when not given; given, it also lets a token go to an MCP URL of another origin. */
  auth?: 'bearer' | 'password';
  /** Seconds, for a login. */
  timeout: number;
}

/** stdin is the protocol here: a password is read from a file, a variable or the keychain. */
const PROXY_PASSWORD_SOURCES = `--password-file or ${envName('PASSWORD')}`;

/**
 * The token is the deployment's (saved by `login --save` for its base URL, or a login there): an MCP URL of another
 * origin (SERVICE_MCP_URL from a project's .envrc, say) gets it only when --auth asks for it in so many words.
 */
function refuseForeignOrigin(ctx: Context, mcpUrl: string, baseUrl: string, authGiven: boolean): void {
  const mcpOrigin = new URL(mcpUrl).origin;
  const baseOrigin = new URL(baseUrl).origin;
  if (mcpOrigin === baseOrigin) return;
  if (authGiven) {
    ctx.out.warn(`the token of ${baseUrl} is sent to ${mcpOrigin}, another origin (--auth bearer)`);
    return;
  }
  throw usageError(
    `the MCP URL ${mcpUrl} is not on the deployment's origin (${baseOrigin}): the proxy will not send it the deployment's token unasked`,
    `point --mcp-url / ${envName('MCP_URL')} at ${baseOrigin}, or pass --auth bearer (or --auth password) to send that server credentials`,
  );
}

function credentialsFor(
  ctx: Context,
  options: Required<Pick<McpProxyOptions, 'auth'>> & McpProxyOptions,
): CredentialSource {
  const flags: CredentialFlags = { email: options.email, passwordFile: options.passwordFile };
  const email = emailWithoutPrompt(ctx, flags)?.value;
  const hasPassword = passwordGiven(ctx, flags);
  const password = async (): Promise<string | undefined> => (await passwordWithoutPrompt(ctx, flags))?.value;
  if (options.auth === 'password') {
    return passwordSource(ctx, {
      baseUrl: optionalBaseUrl(ctx),
      email,
      hasPassword,
      password,
      passwordSources: PROXY_PASSWORD_SOURCES,
    });
  }
  return bearerSource(ctx, {
    baseUrl: resolveBaseUrl(ctx),
    timeoutSeconds: options.timeout,
    email,
    hasPassword,
    password,
    passwordSources: PROXY_PASSWORD_SOURCES,
  });
}

export async function runMcpProxy(ctx: Context, options: McpProxyOptions): Promise<void> {
  if (ctx.globals.json) throw usageError('mcp proxy speaks MCP on stdout: --json does not apply');
  const auth = options.auth ?? 'bearer';
  const baseUrl = auth === 'bearer' ? resolveBaseUrl(ctx, 'the password (to refresh the token)') : undefined;
  const url = resolveMcpUrl(ctx, baseUrl, auth === 'bearer' ? 'the bearer token' : 'the password headers');
  if (baseUrl !== undefined) refuseForeignOrigin(ctx, url, baseUrl, options.auth !== undefined);
  const credentials = credentialsFor(ctx, { ...options, auth });
  // Every credential the proxy sends joined the run's known secrets when it was read: the log (ctx.out) and the error replies are redacted with them.
  const redact = (text: string): string => ctx.secrets.redact(text);
  // Each message is one line: it quotes the server (its protocolVersion, session id, errors) as it answered.
  const log = (message: string): void => ctx.out.info(`svcctl mcp proxy: ${foreign(redact(message))}`);
  // Fails here (exit 4 with the reason) when there is nothing to log in with.
  await credentials.headers();
  log(`forwarding stdio to ${url} (${auth})`);
  const direct = await loopbackDirect(ctx.env, url);
  try {
    await runBridge({
      url,
      fetch: authFetch({ credentials, log, fetch: direct.fetch }),
      stdin: ctx.stdin as unknown as Readable,
      stdout: ctx.out.stdout as unknown as Writable,
      log,
      redact,
      closeTimeoutMs: 2000,
    });
  } finally {
    await direct.close();
  }
  log('stdin closed: session ended');
}
