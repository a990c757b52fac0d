/**
 * Approval before a declaration acts (docs/teams.md, "Approval"): a declaration is often pulled with a repository,
 * and what it writes runs with the user's login. The first sync of a declaration's content shows, per server, what
 * would be written where (scope, clients, host, mode, what it runs) and what would be removed, and asks at a
 * terminal; off one it writes nothing and says how to approve. The approval is pinned to the content.
 */
import { optionalBaseUrl } from '../config/base-url.js';
import { CLI_NAME, MCP_PROXY_PACKAGE, MCP_SERVER_PACKAGE } from '../core/constants.js';
import { canPrompt, type Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { foreign } from '../core/output.js';
import { hintWord } from '../mcp/render/shell-quote.js';
import { CLIENTS } from '../mcp/clients/table.js';
import { isApproved, recordApproval } from '../mcp/install/sync-approval.js';
import type { DeclaredServer, SyncDeclaration } from '../mcp/install/sync-declaration.js';
import type { EntryOutcome } from '../mcp/install/sync-plan.js';
import type { ClientId } from '../mcp/types.js';

export interface PlannedClient {
  client: ClientId;
  /** "Cline in Cursor" for an extension client in one of several hosts; else the client's label. */
  label: string;
  file: string | null;
  entries: EntryOutcome[];
}

function hostOf(serverCtx: Context): string {
  try {
    const base = optionalBaseUrl(serverCtx);
    return base === undefined ? 'no deployment set' : `host ${new URL(base).host}`;
  } catch {
    return 'no valid deployment';
  }
}

/**
 * What an entry of the server starts, as render-entry.ts writes it: a token helper (bearer, no static token) runs
 * svcctl itself, chosen when the token can be refreshed unless `token = "helper"` asks for it; else a proxy entry
 * runs mcp-remote through npx, a remote one nothing.
 */
function runs(server: DeclaredServer, clients: ClientId[]): string {
  if (server.mode === 'local') return `runs the npm package ${foreign(server.package ?? MCP_SERVER_PACKAGE)}`;
  const helper = server.auth === 'bearer' && server.token !== 'static';
  const without = server.mode === 'proxy' ? `the npm package ${MCP_PROXY_PACKAGE}` : 'no package';
  if (!helper) return `runs ${without}`;
  // In remote mode only a client with a headers command runs svcctl for a token; the others get its proxy.
  const withHeaders = clients.filter((id) => server.mode === 'remote' && CLIENTS[id].headersCommand !== undefined);
  const proxied = clients.filter((id) => !withHeaders.includes(id));
  const forToken = `${CLI_NAME} for its token`;
  const proxy = `${CLI_NAME} mcp proxy`;
  const labels = (ids: ClientId[]): string => ids.map((id) => CLIENTS[id].label).join(', ');
  const svcctl =
    withHeaders.length > 0 && proxied.length > 0
      ? `${forToken} (${labels(withHeaders)}), ${proxy} (${labels(proxied)})`
      : withHeaders.length > 0
        ? forToken
        : proxy;
  return server.token === 'helper'
    ? `runs ${svcctl}`
    : `runs ${svcctl} (${without} while ${CLI_NAME} cannot refresh the token)`;
}

const authOf = (server: DeclaredServer): string => {
  if (server.auth !== 'bearer') return 'auth password';
  if (server.token === undefined) return 'auth bearer (token helper if the token can be refreshed, else static token)';
  return `auth bearer (${server.token === 'static' ? 'static token' : 'token helper'})`;
};

const isWrite = (entry: EntryOutcome): boolean => entry.status === 'added' || entry.status === 'updated';

/**
 * One line per declared server and one per entry removed: what the user approves. A server written nowhere this time
 * (in place already, or blocked by an entry that is not svcctl's) is shown too: the approval covers the whole content,
 * so the sync after the blocker goes writes it without a question.
 */
export function approvalSummary(
  declaration: SyncDeclaration,
  contexts: Map<string, Context>,
  planned: PlannedClient[],
): string[] {
  const lines: string[] = [];
  for (const server of declaration.servers) {
    const matching = (test: (entry: EntryOutcome) => boolean): PlannedClient[] =>
      planned.filter(({ entries }) => entries.some((e) => e.name === server.name && test(e)));
    const into = matching(isWrite);
    const later = matching((entry) => !isWrite(entry) && entry.status !== 'removed');
    const what = (clients: PlannedClient[]): string =>
      `${hostOf(contexts.get(server.name)!)}, mode ${server.mode}, ${runs(server, [...new Set(clients.map(({ client }) => client))])}, ${authOf(server)}`;
    const labels = (clients: PlannedClient[]): string => clients.map(({ label }) => label).join(', ');
    const scope = `'${server.name}' (${declaration.scope} scope)`;
    if (into.length > 0) lines.push(`  write ${scope} into ${labels(into)}: ${what(into)}`);
    if (later.length > 0)
      lines.push(
        `  ${scope} for ${labels(later)}, not written now (a later sync writes it without asking): ${what(later)}`,
      );
  }
  if (declaration.clients === 'detected')
    lines.push('  clients = "detected": a client found on this machine later gets these entries without asking');
  for (const { label, file, entries } of planned)
    for (const entry of entries.filter((e) => e.status === 'removed'))
      lines.push(`  remove '${foreign(entry.name)}' from ${label} (${foreign(file ?? '')})`);
  return lines;
}

/**
 * Resolves when the run may write: the content was approved before, `--yes` approves it, or the user says yes at a
 * terminal. Otherwise a CliError (exit 7): nothing has been written. A run that removes entries asks even for
 * approved content: what it removes was written after that approval (an `mcp install`, another declaration), so the
 * approval never showed it.
 */
export async function requireApproval(
  ctx: Context,
  declaration: SyncDeclaration,
  summary: string[],
  options: { file: string; yes?: boolean; removes: boolean; deployments: string },
): Promise<void> {
  // A saved deployment or SERVICE_BASE_URL that now resolves elsewhere asks again: the summary showed the old host.
  const pinned = `${declaration.text}\0${options.deployments}`;
  const approved = await isApproved(ctx, declaration.file, pinned);
  if (approved && !options.removes) return;
  const shown = foreign(declaration.file);
  const header = approved
    ? `${shown} is approved, but this run would also remove entries it does not declare, which that approval did not show. It would:`
    : `${shown} is not approved on this machine yet (new, or changed since it was approved). It would:`;
  const again = `${CLI_NAME} mcp sync --file ${hintWord(options.file, ctx.platform)} --yes`;
  // Shown under --quiet too, but with --yes: without it nobody can know what the approval is for.
  if (!(options.yes && ctx.globals.quiet)) ctx.out.rawError(`${[header, ...summary].join('\n')}\n`);
  if (!options.yes) {
    if (!canPrompt(ctx)) {
      // A fleet's job reads stdout as JSON whatever the exit: one document saying nothing changed, and why.
      if (ctx.globals.json)
        ctx.out.jsonResult({
          file: declaration.file,
          approved: false,
          changed: false,
          summary: summary.map((line) => line.trim()),
        });
      throw new CliError(ExitCode.UnsafeConfig, `${shown}: not approved: nothing was written`, {
        hint: `read the declaration and the lines above; to approve this content: ${again}`,
      });
    }
    const { promptConfirm } = await import('../core/prompts.js');
    if (!(await promptConfirm(ctx, 'Approve this declaration and write these entries?', false)))
      throw new CliError(ExitCode.UnsafeConfig, `${shown}: not approved: nothing was written`, {
        hint: `to approve it later: ${again}`,
      });
  }
  await recordApproval(ctx, declaration.file, pinned).catch(() => undefined);
}
