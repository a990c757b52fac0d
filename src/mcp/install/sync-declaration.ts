/**
 * The file `svcctl mcp sync --file` reads: which clients, which scope, which servers. Every mistake in it is one
 * usage error (exit 2) naming the file, the line and the key, so a fleet's CI log points at the line to fix.
 */
import { dirname, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { parseBaseUrl } from '../../config/settings.js';
import { CliError, ExitCode, isCliError, usageError } from '../../core/errors.js';
import { foreign } from '../../core/output.js';
import { readRegularFile, UnreadableFileError } from '../../fs/regular-file.js';
import { fileReadReason } from '../../fs/reasons.js';
import { isClientId } from '../clients/table.js';
import {
  AUTH_METHODS,
  CLIENT_IDS,
  MODES,
  NAME_PATTERN,
  type AuthMethod,
  type ClientId,
  type Mode,
  type Scope,
  type TokenHow,
} from '../types.js';
import { registrySpecProblem } from './package-spec.js';

export interface DeclaredServer {
  name: string;
  baseUrl?: string;
  deployment?: string;
  mode: Mode;
  auth: AuthMethod;
  token?: TokenHow;
  /** Never literal: a shared file declares entries that hold no secret. */
  secrets?: 'ref' | 'prompt';
  package?: string;
}

export interface SyncDeclaration {
  file: string;
  /** As read, for the line of a mistake found later (an unknown deployment). */
  text: string;
  clients: ClientId[] | 'detected';
  /** The line of `clients`, for a client found unable to take the scope. */
  clientsLine: number;
  scope: Extract<Scope, 'user' | 'project'>;
  /** With scope "project": the folder holding the file. */
  projectDir: string;
  servers: DeclaredServer[];
}

/** A declaration is a page of TOML: anything bigger is not one, and is not read whole. */
export const MAX_DECLARATION_BYTES = 1024 * 1024;

const TOP_KEYS = ['clients', 'scope', 'server'];
const SERVER_KEYS = ['name', 'base_url', 'deployment', 'mode', 'auth', 'token', 'secrets', 'package'];

/** The line of `key` in the n-th [[server]] table (null: the top level), or of the table's header. */
export function lineOfKey(text: string, server: number | null, key: string): number {
  const lines = text.split(/\r?\n/);
  let section: number | null | 'other' = null;
  let seen = -1;
  let header = 1;
  const keyPattern = new RegExp(`^\\s*["']?${key.replace(/[^\w-]/g, '')}["']?\\s*=`);
  for (const [index, line] of lines.entries()) {
    if (/^\s*\[\[\s*server\s*\]\]/.test(line)) {
      seen += 1;
      section = seen;
      if (seen === server) header = index + 1;
      continue;
    }
    if (/^\s*\[/.test(line)) {
      section = 'other';
      continue;
    }
    if (section === server && keyPattern.test(line)) return index + 1;
  }
  return server === null ? 1 : header;
}

class Place {
  constructor(
    readonly file: string,
    readonly text: string,
  ) {}
  error(server: number | null, key: string, what: string, hint?: string): CliError {
    return usageError(`${this.at(server, key)}: '${foreign(key)}' ${what}`, hint);
  }
  /** file:line, the file's name shown on one line whatever it holds. */
  at(server: number | null, key: string): string {
    return `${foreign(this.file)}:${lineOfKey(this.text, server, key)}`;
  }
}

function oneOf<T extends string>(
  place: Place,
  server: number | null,
  key: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw place.error(server, key, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
}

function optionalString(place: Place, server: number, key: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  throw place.error(server, key, 'must be a non-empty string');
}

function clientsOf(place: Place, value: unknown): ClientId[] | 'detected' {
  if (value === 'detected') return 'detected';
  if (!Array.isArray(value) || value.length === 0)
    throw place.error(
      null,
      'clients',
      'must be a list of client ids or "detected"',
      `clients: ${CLIENT_IDS.join(', ')}`,
    );
  const ids = value.map((given) => {
    if (typeof given === 'string' && isClientId(given)) return given;
    throw place.error(
      null,
      'clients',
      `names an unknown client '${foreign(String(given), 80)}'`,
      `clients: ${CLIENT_IDS.join(', ')}`,
    );
  });
  return [...new Set(ids)];
}

function serverOf(place: Place, index: number, table: unknown, names: Set<string>): DeclaredServer {
  if (table === null || typeof table !== 'object' || Array.isArray(table))
    throw place.error(index, 'server', 'must be a table ([[server]])');
  const given = table as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (!SERVER_KEYS.includes(key))
      throw place.error(index, key, 'is not a key of [[server]]', `keys: ${SERVER_KEYS.join(', ')}`);
  const name = given.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name))
    throw place.error(index, 'name', "must be letters, digits, '-' and '_', first a letter");
  if (names.has(name)) throw place.error(index, 'name', `'${name}' is declared twice`);
  names.add(name);
  const baseUrl = optionalString(place, index, 'base_url', given.base_url);
  const deployment = optionalString(place, index, 'deployment', given.deployment);
  if (baseUrl !== undefined && deployment !== undefined)
    throw place.error(index, 'deployment', 'and base_url are both given: keep one');
  const mode = given.mode === undefined ? 'local' : oneOf(place, index, 'mode', given.mode, MODES);
  const auth = given.auth === undefined ? 'password' : oneOf(place, index, 'auth', given.auth, AUTH_METHODS);
  const token = given.token === undefined ? undefined : oneOf(place, index, 'token', given.token, ['helper', 'static']);
  if (given.secrets === 'literal')
    throw place.error(
      index,
      'secrets',
      'cannot be "literal": a synced entry holds no secret',
      'leave it out (entries read SERVICE_PASSWORD or SERVICE_ACCESS_TOKEN from the environment), or use auth = "bearer" with token = "helper"',
    );
  const secrets =
    given.secrets === undefined ? undefined : oneOf(place, index, 'secrets', given.secrets, ['ref', 'prompt'] as const);
  if (baseUrl !== undefined) {
    try {
      parseBaseUrl(baseUrl, `${place.at(index, 'base_url')}: 'base_url'`);
    } catch (error) {
      if (!isCliError(error)) throw error;
      throw usageError(foreign(error.message), error.hint);
    }
  }
  const pkg = optionalString(place, index, 'package', given.package);
  const pkgProblem = pkg === undefined ? undefined : registrySpecProblem(pkg);
  if (pkgProblem !== undefined)
    throw place.error(
      index,
      'package',
      pkgProblem,
      'a shared declaration names a package of the registry; install any other spec yourself with svcctl mcp install --package',
    );
  return {
    name,
    mode,
    auth,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(deployment !== undefined ? { deployment } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(secrets !== undefined ? { secrets } : {}),
    ...(pkg !== undefined ? { package: pkg } : {}),
  };
}

export function parseDeclaration(file: string, text: string): SyncDeclaration {
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    throw usageError(`${foreign(file)}:${error.line}:${error.column}: not valid TOML: ${foreign(reason)}`);
  }
  const place = new Place(file, text);
  for (const key of Object.keys(data))
    if (!TOP_KEYS.includes(key))
      throw place.error(null, key, 'is not a key of a sync file', 'keys: clients, scope, [[server]]');
  if (data.clients === undefined)
    throw place.error(null, 'clients', 'is missing', 'clients = ["cursor", "vscode"], or clients = "detected"');
  const clients = clientsOf(place, data.clients);
  const scope =
    data.scope === undefined ? 'user' : oneOf(place, null, 'scope', data.scope, ['user', 'project'] as const);
  const tables = data.server ?? [];
  if (!Array.isArray(tables)) throw place.error(null, 'server', 'must be written [[server]] (a list of tables)');
  const names = new Set<string>();
  return {
    file,
    text,
    clients,
    clientsLine: lineOfKey(text, null, 'clients'),
    scope,
    projectDir: dirname(file),
    servers: tables.map((table, index) => serverOf(place, index, table, names)),
  };
}

export async function readDeclaration(cwd: string, given: string): Promise<SyncDeclaration> {
  const file = resolve(cwd, given);
  let text: string;
  try {
    text = (await readRegularFile(file, { maxBytes: MAX_DECLARATION_BYTES })).bytes.toString('utf8');
  } catch (error) {
    const reason = error instanceof UnreadableFileError ? error.message : `cannot be read (${fileReadReason(error)})`;
    throw new CliError(ExitCode.Usage, `--file ${foreign(given)}: ${reason}`, {
      hint: 'give the TOML file that declares the clients and servers (docs/teams.md)',
    });
  }
  return parseDeclaration(file, text);
}
