// Search order and what "not found" lists: docs/mcp.md, "svcctl mcp doctor". A file that does not parse (and no
// entry found elsewhere) is handed back, so doctor reports it as its failing `file` check with the position.
import { extname, resolve } from 'node:path';
import { DEFAULT_SERVER_NAME, MCP_SERVER_PACKAGE } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { isCliError, usageError } from '../../core/errors.js';
import { optionalMcpUrl } from '../../config/base-url.js';
import { allClients, CLIENTS, checkScope } from '../clients/table.js';
import { clientEnvOf, explicitTargets, scopeFor, type McpEntryOptions } from '../install/entry-request.js';
import { ConfigParseError, type ConfigDocument, type FilePosition } from '../files/config-document.js';
import { readSnapshot } from '../../fs/safe-write.js';
import { fileTargetOf, openDocument } from '../install/install-plan.js';
import { packageName, pointsAtService } from '../service-entries.js';
import type { ClientId, FileFormat, Scope } from '../types.js';
import { otherPlaces, type StaleFile } from '../clients/versions.js';
import { textSha256 } from '../install/written-entries.js';

export interface LocatedEntry {
  client: ClientId | null;
  scope: Scope;
  file: string;
  name: string;
  value: unknown;
  /** sha256 of the file's text the entry was read from: whose the entry is depends on the whole file. */
  fileSha256: string;
  ignoredKey?: { ignoredKey: string; readKey: string };
  stale?: StaleFile;
}

export interface UnreadableConfig {
  client: ClientId | null;
  scope: Scope;
  file: string;
  name: string;
  problem: string;
  position: FilePosition | undefined;
}

export const isUnreadable = (located: LocatedEntry | UnreadableConfig): located is UnreadableConfig =>
  Object.hasOwn(located, 'problem');

interface Candidate {
  client: ClientId | null;
  scope: Scope;
  file: string;
  format: FileFormat;
  serversPaths: string[][];
  /** A key the client ignores but people (and some installers) write: VS Code reads `servers`, not `mcpServers`. */
  ignored?: { ignoredKey: string; readKey: string };
  stale?: StaleFile;
}

const ignoredKeyOf = (client: ClientId | null): Candidate['ignored'] =>
  client === null ? undefined : CLIENTS[client].doctor?.ignoredKey;

const GENERIC_SERVERS_KEYS: Record<'json' | 'toml', string[][]> = {
  json: [['mcpServers'], ['servers'], ['context_servers']],
  toml: [['mcp_servers']],
};

function candidates(ctx: Context, options: McpEntryOptions, name: string): Candidate[] {
  const clientEnv = clientEnvOf(ctx, options);
  const targets = explicitTargets(options);
  if (options.config !== undefined) {
    const [target] = targets;
    if (target !== undefined) {
      const scope = scopeFor(target, options);
      const fileTarget = fileTargetOf(target, name, scope, clientEnv, options.config, ctx);
      const client = 'client' in target ? target.client : null;
      return [
        {
          client,
          scope,
          file: fileTarget.file,
          format: fileTarget.format,
          serversPaths: [fileTarget.entryPath.slice(0, -1)],
          ignored: ignoredKeyOf(client),
        },
      ];
    }
    // A file of no known client and no --format: look under every key svcctl writes.
    const file = resolve(ctx.cwd, options.config);
    const format = extname(file).toLowerCase() === '.toml' ? 'toml' : 'jsonc';
    return [
      {
        client: null,
        scope: options.scope ?? 'user',
        file,
        format,
        serversPaths: GENERIC_SERVERS_KEYS[format === 'toml' ? 'toml' : 'json'],
      },
    ];
  }
  // Without --config the targets are clients (explicitTargets refuses --format there); none named: every client.
  const named = targets.flatMap((target) => ('client' in target ? [CLIENTS[target.client]] : []));
  const chosen = named.length > 0 ? named : allClients();
  return chosen.flatMap((client) => {
    const scopes = options.scope !== undefined ? [options.scope] : client.scopes;
    if (options.scope !== undefined && named.length > 0) checkScope(client, options.scope);
    return scopes
      .filter((scope) => client.scopes.includes(scope))
      .flatMap((scope) => {
        const base = {
          client: client.id,
          scope,
          format: client.format,
          serversPaths: [client.serversPath(scope, clientEnv)],
        };
        // Places other installed versions read are looked at like the current one; stale ones are reported as such.
        const others = otherPlaces(client, clientEnv, scope);
        return [
          { ...base, file: client.configPath(clientEnv, scope), ignored: client.doctor?.ignoredKey },
          ...others.map((place) => ({
            ...base,
            file: place.file,
            serversPaths: [place.serversPath],
            ...(place.stale ? { stale: place } : {}),
          })),
        ];
      });
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function describeWhere(entry: LocatedEntry): string {
  return `${entry.client ?? 'file'} (${entry.scope}) '${entry.name}' in ${entry.file}`;
}

/** Every entry that matches (doctor without flags checks them all); one entry, or an unreadable file, as locateEntry gives it. */
export async function locateEntries(
  ctx: Context,
  options: McpEntryOptions,
): Promise<Array<LocatedEntry | UnreadableConfig>> {
  try {
    return [await locateEntry(ctx, options, { several: 'return' })];
  } catch (error) {
    if (error instanceof SeveralEntries) return error.found;
    throw error;
  }
}

class SeveralEntries extends Error {
  constructor(readonly found: LocatedEntry[]) {
    super('several entries match');
  }
}

export async function locateEntry(
  ctx: Context,
  options: McpEntryOptions,
  how: { several: 'refuse' | 'return'; command?: string } = { several: 'refuse' },
): Promise<LocatedEntry | UnreadableConfig> {
  const name = options.name ?? DEFAULT_SERVER_NAME;
  const looked: string[] = [];
  const named: LocatedEntry[] = [];
  const ours: LocatedEntry[] = [];
  const misplaced: LocatedEntry[] = [];
  const stale: LocatedEntry[] = [];
  let unreadable: UnreadableConfig | undefined;
  const documents = new Map<string, ConfigDocument | null>();
  const digests = new Map<string, string>();
  const matcher = { package: packageName(options.package ?? MCP_SERVER_PACKAGE), mcpUrl: optionalMcpUrl(ctx) };
  const visited = new Set<string>();
  for (const candidate of candidates(ctx, options, name)) {
    if (!documents.has(candidate.file)) {
      documents.set(candidate.file, null);
      const snapshot = await readSnapshot(candidate.file);
      if (!snapshot.exists) {
        looked.push(`${candidate.file} (no such file)`);
        continue;
      }
      digests.set(candidate.file, textSha256(snapshot.bytes));
      try {
        documents.set(
          candidate.file,
          openDocument(
            candidate.format,
            snapshot.text,
            candidate.file,
            candidate.client === null ? undefined : CLIENTS[candidate.client],
          ),
        );
      } catch (error) {
        if (!isCliError(error)) throw error;
        const position = error instanceof ConfigParseError ? error.position : undefined;
        unreadable ??= {
          client: candidate.client,
          scope: candidate.scope,
          file: candidate.file,
          name,
          problem: error.message,
          position,
        };
        looked.push(`${candidate.file} (does not parse)`);
        continue;
      }
      looked.push(candidate.file);
    }
    const document = documents.get(candidate.file);
    if (!document) continue;
    for (const path of candidate.serversPaths) {
      // A project folder that is the home folder makes two scopes name one file: check it once.
      const key = [candidate.file, ...path].join('\0');
      if (visited.has(key)) continue;
      visited.add(key);
      const servers = document.get(path);
      if (!isRecord(servers)) continue;
      const fileSha256 = digests.get(candidate.file) ?? '';
      const base = { client: candidate.client, scope: candidate.scope, file: candidate.file, fileSha256 };
      if (candidate.stale !== undefined) {
        const matching = Object.entries(servers).filter(([other, value]) =>
          options.name !== undefined || Object.hasOwn(servers, name) ? other === name : pointsAtService(value, matcher),
        );
        stale.push(...matching.map(([other, value]) => ({ ...base, name: other, value, stale: candidate.stale })));
        continue;
      }
      if (Object.hasOwn(servers, name)) named.push({ ...base, name, value: servers[name] });
      for (const [other, value] of Object.entries(servers))
        if (pointsAtService(value, matcher)) ours.push({ ...base, name: other, value });
    }
    const ignored = candidate.ignored;
    const wrong = ignored === undefined ? undefined : document.get([ignored.ignoredKey]);
    if (ignored !== undefined && isRecord(wrong)) {
      const base = {
        client: candidate.client,
        scope: candidate.scope,
        file: candidate.file,
        fileSha256: digests.get(candidate.file) ?? '',
        ignoredKey: ignored,
      };
      const matching = Object.entries(wrong).filter(([other, value]) =>
        options.name !== undefined || Object.hasOwn(wrong, name) ? other === name : pointsAtService(value, matcher),
      );
      misplaced.push(...matching.map(([other, value]) => ({ ...base, name: other, value })));
    }
  }
  const proper = named.length > 0 || options.name !== undefined ? named : ours;
  // Under a key the client ignores: reported (a failing entry check) only when no entry the client reads is found.
  const found = proper.length > 0 ? proper : misplaced.length > 0 ? misplaced : stale;
  if (found.length === 1) {
    if (unreadable) ctx.out.warn(unreadable.problem);
    return found[0]!;
  }
  if (found.length > 1 && how.several === 'return') {
    if (unreadable) ctx.out.warn(unreadable.problem);
    throw new SeveralEntries(found);
  }
  if (found.length > 1) {
    throw usageError(
      `${found.length} entries match; ${how.command ?? 'doctor'} ${how.command === 'get' ? 'shows' : 'checks'} one:\n${found.map((entry) => `  ${describeWhere(entry)}`).join('\n')}`,
      'choose one with --client, --scope and --name (or --config)',
    );
  }
  if (unreadable) return unreadable;
  throw usageError(
    `no MCP entry '${name}'${options.name === undefined ? ' (nor any entry pointing at the service)' : ''} found; looked at:\n${looked.map((file) => `  ${file}`).join('\n')}`,
    'install one with `svcctl mcp install --client <id>`, or point at it with --client, --scope, --project-dir, --name or --config',
  );
}
