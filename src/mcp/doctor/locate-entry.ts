// Search order and what "not found" lists: docs/mcp.md, "svcctl mcp doctor". A file that does not parse (and no
// entry found elsewhere) is handed back, so doctor reports it as its failing `file` check with the position.
import { extname, resolve } from 'node:path';
import { DEFAULT_SERVER_NAME, MCP_SERVER_PACKAGE } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { isCliError, usageError } from '../../core/errors.js';
import { foreign } from '../../core/output.js';
import { optionalMcpUrl } from '../../config/base-url.js';
import { allClients, CLIENTS, checkScope } from '../clients/table.js';
import { clientEnvOf, explicitTargets, scopeFor, type McpEntryOptions } from '../install/entry-request.js';
import { ConfigParseError, type ConfigDocument, type FilePosition } from '../../formats/config-document.js';
import { readSnapshot } from '../../fs/safe-write.js';
import { duplicatedNames } from '../install/duplicate-entries.js';
import { fileTargetOf, openDocument } from '../install/install-plan.js';
import { packageName, pointsAtService, type ServiceMatcher } from '../service-entries.js';
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
  /** Its name (or its servers key) is in the file more than once: clients may read another copy. */
  duplicated?: true;
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
  return `${entry.client ?? 'file'} (${entry.scope}) '${foreign(entry.name)}' in ${foreign(entry.file)}`;
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

interface OpenedFile {
  document: ConfigDocument;
  fileSha256: string;
}

/** Each file read and parsed once (several candidates can name one file), and what was looked at for "not found". */
class CandidateFiles {
  readonly looked: string[] = [];
  /** The first file that does not parse: the answer when no entry is found elsewhere. */
  unreadable: UnreadableConfig | undefined;
  private readonly opened = new Map<string, OpenedFile | null>();

  constructor(private readonly name: string) {}

  async open(candidate: Candidate): Promise<OpenedFile | null> {
    if (this.opened.has(candidate.file)) return this.opened.get(candidate.file) ?? null;
    this.opened.set(candidate.file, null);
    const snapshot = await readSnapshot(candidate.file);
    if (!snapshot.exists) {
      this.looked.push(`${candidate.file} (no such file)`);
      return null;
    }
    const clientSpec = candidate.client === null ? undefined : CLIENTS[candidate.client];
    let document: ConfigDocument;
    try {
      document = openDocument(candidate.format, snapshot.text, candidate.file, clientSpec);
    } catch (error) {
      if (!isCliError(error)) throw error;
      const position = error instanceof ConfigParseError ? error.position : undefined;
      const { client, scope, file } = candidate;
      this.unreadable ??= { client, scope, file, name: this.name, problem: error.message, position };
      this.looked.push(`${candidate.file} (does not parse)`);
      return null;
    }
    this.looked.push(candidate.file);
    const opened = { document, fileSha256: textSha256(snapshot.bytes) };
    this.opened.set(candidate.file, opened);
    return opened;
  }
}

interface Search {
  name: string;
  /** --name was given: only an entry of that name counts. */
  nameGiven: boolean;
  matcher: ServiceMatcher;
  /** file and servers path: a project folder that is the home folder makes two scopes name one file. */
  visited: Set<string>;
  named: LocatedEntry[];
  ours: LocatedEntry[];
  misplaced: LocatedEntry[];
  stale: LocatedEntry[];
}

/** The entry of the name asked for; without --name and no entry of the default name, those pointing at the service. */
function matching(servers: Record<string, unknown>, search: Search): Array<[string, unknown]> {
  const byName = search.nameGiven || Object.hasOwn(servers, search.name);
  return Object.entries(servers).filter(([other, value]) =>
    byName ? other === search.name : pointsAtService(value, search.matcher),
  );
}

function collectEntries(candidate: Candidate, opened: OpenedFile, search: Search): void {
  const { document, fileSha256 } = opened;
  const base = { client: candidate.client, scope: candidate.scope, file: candidate.file, fileSha256 };
  for (const path of candidate.serversPaths) {
    const key = [candidate.file, ...path].join('\0');
    if (search.visited.has(key)) continue;
    search.visited.add(key);
    const servers = document.get(path);
    if (!isRecord(servers)) continue;
    if (candidate.stale !== undefined) {
      const stale = candidate.stale;
      search.stale.push(...matching(servers, search).map(([other, value]) => ({ ...base, name: other, value, stale })));
      continue;
    }
    const duplicated = new Set(duplicatedNames(document, path));
    const withName = (name: string) =>
      duplicated.has(name) || path.some((key) => duplicated.has(key)) ? { ...base, duplicated: true as const } : base;
    if (Object.hasOwn(servers, search.name))
      search.named.push({ ...withName(search.name), name: search.name, value: servers[search.name] });
    for (const [other, value] of Object.entries(servers))
      if (pointsAtService(value, search.matcher)) search.ours.push({ ...withName(other), name: other, value });
  }
  const ignored = candidate.ignored;
  const wrong = ignored === undefined ? undefined : document.get([ignored.ignoredKey]);
  if (ignored !== undefined && isRecord(wrong)) {
    const misplaced = { ...base, ignoredKey: ignored };
    search.misplaced.push(...matching(wrong, search).map(([other, value]) => ({ ...misplaced, name: other, value })));
  }
}

function chooseEntry(
  ctx: Context,
  search: Search,
  files: CandidateFiles,
  how: { several: 'refuse' | 'return'; command?: string },
): LocatedEntry | UnreadableConfig {
  const { name, named, ours, misplaced, stale } = search;
  const proper = named.length > 0 || search.nameGiven ? named : ours;
  // Under a key the client ignores: reported (a failing entry check) only when no entry the client reads is found.
  const found = proper.length > 0 ? proper : misplaced.length > 0 ? misplaced : stale;
  if (found.length === 1) {
    if (files.unreadable) ctx.out.warn(foreign(files.unreadable.problem));
    return found[0]!;
  }
  if (found.length > 1 && how.several === 'return') {
    if (files.unreadable) ctx.out.warn(foreign(files.unreadable.problem));
    throw new SeveralEntries(found);
  }
  if (found.length > 1) {
    throw usageError(
      `${found.length} entries match; ${how.command ?? 'doctor'} ${how.command === 'get' ? 'shows' : 'checks'} one:\n${found.map((entry) => `  ${describeWhere(entry)}`).join('\n')}`,
      'choose one with --client, --scope and --name (or --config)',
    );
  }
  if (files.unreadable) return files.unreadable;
  throw usageError(
    `no MCP entry '${foreign(name)}'${search.nameGiven ? '' : ' (nor any entry pointing at the service)'} found; looked at:\n${files.looked.map((file) => `  ${foreign(file)}`).join('\n')}`,
    'install one with `svcctl mcp install --client <id>`, or point at it with --client, --scope, --project-dir, --name or --config',
  );
}

export async function locateEntry(
  ctx: Context,
  options: McpEntryOptions,
  how: { several: 'refuse' | 'return'; command?: string } = { several: 'refuse' },
): Promise<LocatedEntry | UnreadableConfig> {
  const name = options.name ?? DEFAULT_SERVER_NAME;
  const search: Search = {
    name,
    nameGiven: options.name !== undefined,
    matcher: { package: packageName(options.package ?? MCP_SERVER_PACKAGE), mcpUrl: optionalMcpUrl(ctx) },
    visited: new Set(),
    named: [],
    ours: [],
    misplaced: [],
    stale: [],
  };
  const files = new CandidateFiles(name);
  for (const candidate of candidates(ctx, options, name)) {
    const opened = await files.open(candidate);
    if (opened) collectEntries(candidate, opened, search);
  }
  return chooseEntry(ctx, search, files, how);
}
