/**
 * `svcctl mcp list`: every entry pointing at this service in the config files
 * of all known clients on this machine — user-scope files, and project-scope
 * files of the current directory (or --project-dir). A file that does not
 * parse is a warning, not a failure: list only reads.
 * --json: [{client, scope, file, name, mode}].
 */
import { MCP_SERVER_PACKAGE } from '../constants.js';
import type { Context } from '../context.js';
import { isCliError } from '../errors.js';
import { optionalMcpUrl } from '../deployment.js';
import { allClients } from '../mcp/clients/table.js';
import { clientEnvOf } from '../mcp/install/entry-request.js';
import { readSnapshot } from '../mcp/files/safe-write.js';
import { openDocument } from '../mcp/install/install-plan.js';
import { modeOf, packageName, pointsAtService, type ServiceMatcher } from '../mcp/service-entries.js';
import { type ClientId, type Mode, type Scope } from '../mcp/types.js';
import type { ConfigDocument } from '../mcp/files/config-document.js';

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
}

export async function findServiceEntries(ctx: Context, options: McpListOptions): Promise<{ entries: ListedEntry[]; warnings: string[] }> {
  const clientEnv = clientEnvOf(ctx, options);
  const matcher: ServiceMatcher = { package: packageName(options.package ?? MCP_SERVER_PACKAGE), mcpUrl: optionalMcpUrl(ctx) };
  const documents = new Map<string, ConfigDocument | null>();
  const entries: ListedEntry[] = [];
  const warnings: string[] = [];
  // A project folder that is the home folder makes two scopes name one file (~/.qwen/settings.json): list it once.
  const visited = new Set<string>();
  for (const client of allClients()) {
    for (const scope of client.scopes) {
      const file = client.configPath(clientEnv, scope);
      if (!documents.has(file)) {
        documents.set(file, null);
        try {
          const snapshot = await readSnapshot(file);
          if (snapshot.exists) documents.set(file, openDocument(client.format, snapshot.text, file, client));
        } catch (error) {
          if (!isCliError(error)) throw error;
          warnings.push(error.message);
        }
      }
      const serversPath = client.serversPath(scope, clientEnv);
      const key = [file, ...serversPath].join('\0');
      if (visited.has(key)) continue;
      visited.add(key);
      const servers = documents.get(file)?.get(serversPath);
      if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) continue;
      for (const [name, value] of Object.entries(servers)) {
        if (pointsAtService(value, matcher)) entries.push({ client: client.id, scope, file, name, mode: modeOf(value) });
      }
    }
  }
  return { entries, warnings };
}

export async function runMcpList(ctx: Context, options: McpListOptions): Promise<void> {
  const { entries, warnings } = await findServiceEntries(ctx, options);
  for (const warning of warnings) ctx.out.warn(warning);
  if (ctx.globals.json) {
    ctx.out.jsonResult(entries);
    return;
  }
  if (entries.length === 0) {
    ctx.out.info('no MCP client config on this machine has an entry for the service (svcctl mcp install adds one)');
    return;
  }
  const rows = [['CLIENT', 'SCOPE', 'NAME', 'MODE', 'FILE'], ...entries.map((entry) => [entry.client, entry.scope, entry.name, entry.mode, entry.file])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) ctx.out.result(row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}
