// `svcctl mcp list`: only reads, so a file that does not parse is a warning (architecture.md "mcp list").
import { MCP_SERVER_PACKAGE } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { isCliError } from '../core/errors.js';
import { foreign } from '../core/output.js';
import { optionalBaseUrl, optionalMcpUrl } from '../config/base-url.js';
import { allClients, CLIENTS } from '../mcp/clients/table.js';
import { describeStale, otherPlaces, unreadBy } from '../mcp/clients/versions.js';
import { maskUrl } from '../redaction/mask-entry.js';
import { clientEnvOf } from '../mcp/install/entry-request.js';
import { readSnapshot } from '../fs/safe-write.js';
import { duplicatedNames, duplicatesProblem } from '../mcp/install/duplicate-entries.js';
import { openDocument } from '../mcp/install/install-plan.js';
import {
  entryUrl,
  forAnotherDeployment,
  modeOf,
  packageName,
  pointsAtService,
  type ServiceMatcher,
} from '../mcp/service-entries.js';
import { savedBaseUrls } from '../auth/credentials-store.js';
import { readDeployments } from '../config/deployments-file.js';
import { deriveMcpUrl } from '../config/settings.js';
import type { ClientEnv, ClientId, ClientSpec, Mode, Scope } from '../mcp/types.js';
import type { ConfigDocument } from '../formats/config-document.js';

export interface McpListOptions {
  projectDir?: string;
  package?: string;
}

export interface ListedEntry {
  client: ClientId;
  scope: Scope;
  file: string;
  name: string;
  mode: Mode;
  /** Where the entry sends its requests, as written in it (null: not written, e.g. a variable reference). */
  url: string | null;
  /** True when that URL is not the deployment this run uses. */
  other_deployment: boolean;
  /** Set when no installed version of the client reads this place: the client will not load the entry. */
  stale?: { read_by: string; current: string; current_reader: string; why: string };
}

/** The MCP URLs of every deployment svcctl knows of: an entry for one of them is listed whatever the current one is. */
async function knownMcpUrls(ctx: Context): Promise<string[]> {
  const saved = await readDeployments(ctx).then(
    (file) => file.deployments.map((d) => d.baseUrl),
    () => [],
  );
  const logins = await savedBaseUrls(ctx).catch(() => [] as string[]);
  return [...new Set([...saved, ...logins])].flatMap((baseUrl) => {
    try {
      return [deriveMcpUrl(baseUrl)];
    } catch {
      return [];
    }
  });
}

export async function findServiceEntries(
  ctx: Context,
  options: McpListOptions,
): Promise<{ entries: ListedEntry[]; warnings: string[] }> {
  const clientEnv = clientEnvOf(ctx, options);
  const inUse = { mcpUrl: optionalMcpUrl(ctx), baseUrl: optionalBaseUrl(ctx) };
  const matcher: ServiceMatcher = {
    package: packageName(options.package ?? MCP_SERVER_PACKAGE),
    mcpUrl: inUse.mcpUrl,
    otherMcpUrls: await knownMcpUrls(ctx),
  };
  const documents = new Map<string, ConfigDocument | null>();
  const entries: ListedEntry[] = [];
  const warnings: string[] = [];
  // A project folder that is the home folder makes two scopes name one file (~/.qwen/settings.json): list it once.
  const visited = new Set<string>();
  for (const client of allClients()) {
    for (const scope of client.scopes) {
      const current = {
        file: client.configPath(clientEnv, scope),
        serversPath: client.serversPath(scope, clientEnv),
        stale: undefined,
      };
      const others = otherPlaces(client, clientEnv, scope).map((other) => ({
        file: other.file,
        serversPath: other.serversPath,
        stale: other.stale ? other : undefined,
      }));
      for (const place of [current, ...others]) {
        const { file } = place;
        if (!documents.has(file)) {
          documents.set(file, null);
          try {
            const snapshot = await readSnapshot(file);
            if (snapshot.exists) documents.set(file, openDocument(client.format, snapshot.text, file, client));
          } catch (error) {
            if (!isCliError(error)) throw error;
            warnings.push(foreign(error.message));
          }
        }
        const { serversPath } = place;
        const key = [file, ...serversPath].join('\0');
        if (visited.has(key)) continue;
        visited.add(key);
        const document = documents.get(file);
        const servers = document?.get(serversPath);
        if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) continue;
        const duplicated = document ? duplicatedNames(document, serversPath) : [];
        if (duplicated.length > 0) warnings.push(duplicatesProblem(file, duplicated));
        for (const [name, value] of Object.entries(servers)) {
          if (!pointsAtService(value, matcher)) continue;
          const stale = place.stale
            ? {
                read_by: place.stale.readBy,
                current: place.stale.current,
                current_reader: place.stale.currentReader,
                why: describeStale(place.stale, name),
              }
            : undefined;
          const url = entryUrl(value);
          entries.push({
            client: client.id,
            scope,
            file,
            name,
            mode: modeOf(value),
            url: url ?? null,
            other_deployment: forAnotherDeployment(url, inUse),
            ...(stale ? { stale } : {}),
          });
        }
      }
    }
  }
  return { entries, warnings };
}

/** What `list` says about entries a client will not load: one in a place no installed version reads, one that an
 * installed version beside another does not read, and a Gemini CLI entry when agy, which reads its own file, is here.
 * */
export function entryWarnings(entries: ListedEntry[], clientEnv: ClientEnv): string[] {
  const warnings: string[] = [];
  for (const entry of entries) {
    if (!entry.stale) continue;
    const moved = entries.some(
      (other) =>
        other.client === entry.client && other.scope === entry.scope && other.name === entry.name && !other.stale,
    );
    warnings.push(
      `${entry.client} (${entry.scope}) ${foreign(entry.stale.why)}, so the client will not load it: ` +
        (moved
          ? `remove the old one with: svcctl mcp uninstall --client ${entry.client} --name ${foreign(entry.name)}, then install again`
          : `move it with: svcctl mcp install --client ${entry.client}${entry.scope === 'user' ? '' : ` --scope ${entry.scope}`}`),
    );
  }
  const warned = new Set<string>();
  // Versions installed side by side that cannot all read one place (opencode 2 beside an old opencode 1).
  for (const entry of entries) {
    for (const reason of entry.stale ? [] : unreadBy(CLIENTS[entry.client], clientEnv, entry.scope)) {
      const note = `${entry.client} (${entry.scope}): ${reason}: that version will not load the entries svcctl wrote`;
      if (!warned.has(note)) warnings.push(note);
      warned.add(note);
    }
  }
  for (const entry of entries) {
    const note = replacedNote(CLIENTS[entry.client], clientEnv);
    if (
      note === undefined ||
      warned.has(note) ||
      entries.some((other) => other.client === CLIENTS[entry.client].replacedBy?.client && !other.stale)
    )
      continue;
    warned.add(note);
    warnings.push(note);
  }
  return warnings;
}

/** What to say when the client that replaces `client` is installed: our entry in `client`'s file will not reach it. */
export function replacedNote(client: ClientSpec, clientEnv: ClientEnv): string | undefined {
  const next = client.replacedBy;
  if (next === undefined || !next.installed(clientEnv)) return undefined;
  return `${next.label}, which replaces ${client.label}, is on this machine and does not read ${client.label}'s file: add the server for it with: svcctl mcp install --client ${next.client}`;
}

/** An entry as listed: its URL masked (a token in its query, a password in its userinfo). */
export const shownEntry = <T extends ListedEntry>(entry: T): T => ({
  ...entry,
  url: entry.url === null ? null : maskUrl(entry.url),
});

export const urlCell = (entry: ListedEntry): string =>
  `${entry.url === null ? '-' : maskUrl(entry.url)}${entry.other_deployment ? ' (other deployment)' : ''}`;

/** Entries for another deployment are listed, marked, and said to be: commands that act on "the" entry use the current one. */
export function sayOtherDeployments(ctx: Context, entries: ListedEntry[]): void {
  const others = entries.filter((entry) => entry.other_deployment).length;
  if (others === 0) return;
  const current = optionalBaseUrl(ctx);
  ctx.out.info(
    `${others} of ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} ${others === 1 ? 'points' : 'point'} at another deployment than ${current ?? 'the current one'} (marked "other deployment").`,
  );
}

export async function runMcpList(ctx: Context, options: McpListOptions): Promise<void> {
  const { entries, warnings } = await findServiceEntries(ctx, options);
  for (const warning of warnings) ctx.out.warn(warning);
  if (ctx.globals.json) {
    ctx.out.jsonResult(entries.map(shownEntry));
    return;
  }
  if (entries.length === 0) {
    ctx.out.info('no MCP client config on this machine has an entry for the service (svcctl mcp install adds one)');
    return;
  }
  const rows = [
    ['CLIENT', 'SCOPE', 'NAME', 'MODE', 'URL', 'FILE'],
    ...entries.map((entry) => [
      entry.client,
      entry.scope,
      entry.name,
      entry.stale ? `${entry.mode} (stale)` : entry.mode,
      urlCell(entry),
      entry.file,
    ]),
  ].map((row) => row.map((cell) => foreign(cell)));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    ctx.out.result(
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    );
  sayOtherDeployments(ctx, entries);
  for (const warning of entryWarnings(entries, clientEnvOf(ctx, options))) ctx.out.warn(warning);
}
