/**
 * Entries for `mcp install --auth bearer --token helper`: svcctl itself hands
 * the client a fresh token, so the entry holds no token and never goes stale.
 * - A client that runs a command for a remote entry's headers (its row's
 *   `headersCommand`, Claude Code's `headersHelper`), in remote mode: the
 *   remote entry with `svcctl --base-url <url> token --refresh --json-headers`
 *   in that field.
 * - Any other client (and proxy mode): a stdio entry that runs
 *   `svcctl --base-url <url> mcp proxy`, which adds a fresh token to every
 *   request (src/commands/mcp-proxy.ts).
 * svcctl runs as `svcctl` when it is on PATH, else as `npx -y svcctl`; on
 * Windows through `cmd /c` for clients that spawn without a shell (the npm
 * shim is a .cmd file). Only the base URL is in the arguments: no secret.
 */
import { CLI_NAME } from '../../constants.js';
import { deriveMcpUrl } from '../../settings.js';
import { commandLine } from '../clients/shell-quote.js';
import { stdioEntry } from './json-clients.js';
import type { ClientSpec, EntryRequest, TokenHelper } from '../types.js';

type Entry = Record<string, unknown>;

/** The headers helper's arguments after svcctl. */
export const HELPER_ARGS = ['token', '--refresh', '--json-headers'];
/** The proxy's arguments after svcctl. */
export const PROXY_ARGS = ['mcp', 'proxy'];

function deploymentArgs(request: EntryRequest): string[] {
  const args = ['--base-url', request.baseUrl];
  // The proxy derives the MCP URL from the base URL; one that differs is given too.
  if (request.mcpUrl !== '' && request.mcpUrl !== deriveMcpUrl(request.baseUrl)) args.push('--mcp-url', request.mcpUrl);
  return args;
}

/** Whether this entry is the client's headers command (else a proxy entry). */
export function usesHeadersCommand(client: ClientSpec, request: EntryRequest): boolean {
  return client.headersCommand !== undefined && request.mode === 'remote';
}

function svcctlLine(helper: TokenHelper, args: string[]): string[] {
  return [...helper.svcctl, ...args];
}

export function tokenHelperEntry(client: ClientSpec, request: EntryRequest, helper: TokenHelper): Entry {
  const headers = client.headersCommand;
  if (headers !== undefined && usesHeadersCommand(client, request)) {
    const line = svcctlLine(helper, [...deploymentArgs(request), ...HELPER_ARGS]);
    const { urlField, fields } = client.shape.remote;
    return { ...fields, [urlField]: request.mcpUrl, [headers.field]: commandLine(line, 'posix'), ...client.shape.trailingFields };
  }
  const [program, ...args] = svcctlLine(helper, [...deploymentArgs(request), ...PROXY_ARGS]);
  const run = client.windowsCmdWrap && request.platform === 'win32' ? { command: 'cmd', args: ['/c', program!, ...args] } : { command: program!, args };
  // The row's stdio shape (fixed fields, a command array, trailing fields); no env: the entry holds no secret.
  return stdioEntry(client, run);
}

/** What the user is told about such an entry. */
export function tokenHelperNotes(client: ClientSpec, request: EntryRequest, helper: TokenHelper): string[] {
  const how = helper.svcctl.length === 1
    ? 'svcctl is on PATH, so the entry runs it by name'
    : `svcctl is not installed globally, so it runs \`${helper.svcctl.join(' ')}\` (install it with \`npm install -g ${CLI_NAME}\` to start faster and pin the version)`;
  const what = usesHeadersCommand(client, request)
    ? `${client.label} runs \`svcctl token --refresh --json-headers\` (its ${client.headersCommand!.field}) for the headers when it connects, so the token it sends is never a stale one.`
    : `The entry runs \`svcctl mcp proxy\`, which forwards to ${request.mcpUrl} with a fresh token on every request, so the token never goes stale.`;
  const notes = [what, `${how}.`];
  if (!helper.canRefresh) {
    notes.push(
      "svcctl cannot log in again by itself yet: run `svcctl login --save --remember-password` once (the password goes to the OS keychain), or the entry works only until the saved token expires.",
    );
  }
  return notes;
}
