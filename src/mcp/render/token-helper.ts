// Only the base URL is in the arguments: no secret. npx and npm's shims are .cmd files, hence `cmd /c` on Windows.
import { plainRemoteHost } from '../../config/plain-http.js';
import { deriveMcpUrl } from '../../config/settings.js';
import { cmdSlashC, commandLine, commandShellFor } from './shell-quote.js';
import { stdioEntry } from './json-clients.js';
import { runnerEnv } from './values.js';
import type { ClientSpec, EntryRequest, SvcctlCommand, TokenHelper } from '../types.js';

type Entry = Record<string, unknown>;

export const HELPER_ARGS = ['token', '--refresh', '--json-headers'];
export const PROXY_ARGS = ['mcp', 'proxy'];

function deploymentArgs(request: EntryRequest): string[] {
  const args = ['--base-url', request.baseUrl];
  // The proxy derives the MCP URL from the base URL; one that differs is given too.
  if (request.mcpUrl !== '' && request.mcpUrl !== deriveMcpUrl(request.baseUrl)) args.push('--mcp-url', request.mcpUrl);
  // Given at install, it is needed again where the entry runs svcctl (src/config/plain-http.ts).
  if (request.allowHttp && [request.baseUrl, request.mcpUrl].some((url) => plainRemoteHost(url) !== undefined))
    args.unshift('--allow-http');
  return args;
}

/** The proxy sends a deployment's token to another origin only when the line asks for it (src/commands/mcp-proxy.ts). */
export function proxyArgs(baseUrl: string, mcpUrl: string | undefined): string[] {
  const elsewhere = mcpUrl !== undefined && mcpUrl !== '' && new URL(mcpUrl).origin !== new URL(baseUrl).origin;
  return elsewhere ? [...PROXY_ARGS, '--auth', 'bearer'] : PROXY_ARGS;
}

export function usesHeadersCommand(client: ClientSpec, request: EntryRequest): boolean {
  return client.headersCommand !== undefined && request.mode === 'remote';
}

function svcctlLine(helper: TokenHelper, args: string[]): string[] {
  return [...helper.svcctl.argv, ...args];
}

export function tokenHelperEntry(client: ClientSpec, request: EntryRequest, helper: TokenHelper): Entry {
  const headers = client.headersCommand;
  if (headers !== undefined && usesHeadersCommand(client, request)) {
    const line = svcctlLine(helper, [...deploymentArgs(request), ...HELPER_ARGS]);
    const { urlField, fields } = client.shape.remote;
    return {
      ...fields,
      [urlField]: request.mcpUrl,
      // A client that splits the line into words itself (shell: false) reads POSIX quotes on every system.
      [headers.field]: commandLine(line, headers.shell ? commandShellFor(request.platform) : 'posix'),
      ...client.shape.trailingFields,
    };
  }
  const [first, ...args] = svcctlLine(helper, [
    ...deploymentArgs(request),
    ...proxyArgs(request.baseUrl, request.mcpUrl),
  ]);
  // `npx -y svcctl@…` meets the same PATH as any npx entry (docs/mcp-gui.md); svcctl's own requests need the CA file.
  const byNpx = helper.svcctl.how === 'npx' && request.runner !== undefined;
  const program = byNpx ? request.runner!.command : first!;
  const shim = helper.svcctl.how !== 'path';
  const run =
    shim && client.windowsCmdWrap && request.platform === 'win32'
      ? cmdSlashC(program, args, client.label)
      : { command: program, args };
  const env = runnerEnv(client.variables, byNpx ? request : { ...request, runner: undefined });
  const entry = stdioEntry(client, run, Object.keys(env).length > 0 ? env : undefined);
  return client.renderer?.stdio?.(request, entry) ?? entry;
}

const HOW_NOTES: Record<SvcctlCommand['how'], (argv: string[]) => string> = {
  path: (argv) =>
    `The entry runs this svcctl by its path (${argv.join(' ')}): after moving or deleting it, run the same \`svcctl mcp install\` again with --force (\`svcctl mcp doctor\` tells when the path is gone)`,
  npx: (argv) =>
    `svcctl runs from npx's cache, so the entry runs \`${argv.join(' ')}\` (this version; a client's first start may download it): install svcctl from a clone or a tarball (docs/install.md) for an entry that starts at once`,
  name: () => 'svcctl is on PATH, so the entry runs it by name',
};

// Never advice that cannot work on this machine.
function noRefreshNote(helper: TokenHelper): string {
  const keychain = helper.noKeychain === undefined;
  const until =
    helper.saved === null
      ? 'You are not logged in: until you run `svcctl login --save`, the entry has no token to send and the client gets 401.'
      : `It sends the saved token until it expires${helper.saved?.expiresAt ? ` (${helper.saved.expiresAt})` : ''}; then the client gets 401.`;
  const then = keychain
    ? 'Run `svcctl login --save --remember-password` once (the password goes to the OS keychain) and svcctl logs in again by itself.'
    : `This machine has no OS keychain (${helper.noKeychain}), so svcctl cannot log in again by itself: run \`svcctl login --save\` again when the token expires.`;
  return `${until} ${then}`;
}

export function tokenHelperNotes(client: ClientSpec, request: EntryRequest, helper: TokenHelper): string[] {
  const how =
    request.scope === 'project'
      ? 'A project file is read on every member’s machine, so the entry runs svcctl by name: each member needs svcctl on the PATH the client starts with (docs/install.md)'
      : HOW_NOTES[helper.svcctl.how](helper.svcctl.argv);
  // "Never stale" holds only when svcctl can log in again by itself; else noRefreshNote says when it goes stale.
  const what = usesHeadersCommand(client, request)
    ? `${client.label} runs \`svcctl token --refresh --json-headers\` (its ${client.headersCommand!.field}) for the headers when it connects${helper.canRefresh ? ', so the token it sends is never a stale one' : ''}.`
    : `The entry runs \`svcctl mcp proxy\`, which forwards to ${request.mcpUrl} with ${helper.canRefresh ? 'a fresh token on every request, so the token never goes stale' : "svcctl's saved token"}.`;
  const notes = [what, `${how}.`];
  if (!helper.canRefresh) notes.push(noRefreshNote(helper));
  return notes;
}
