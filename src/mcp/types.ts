/**
 * Shared types of `svcctl mcp`: which clients exist, what a client's table row
 * says about it, what is asked for (EntryRequest) and what gets written
 * (RenderedEntry). WHAT is written lives in clients/ and render-*.ts; HOW it is
 * written into a user's file (in-place edits, backups, atomic rename) lives in
 * files/. Both sides code against these types.
 */

export const CLIENT_IDS = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'codex',
  'gemini',
  'cline',
  'zed',
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

export const MODES = ['local', 'remote', 'proxy'] as const;
export type Mode = (typeof MODES)[number];

export const AUTH_METHODS = ['password', 'bearer'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const SCOPES = ['user', 'project', 'local'] as const;
export type Scope = (typeof SCOPES)[number];

/** ref: references to the user's environment; literal: values in the file; prompt: VS Code inputs. */
export const SECRETS_HOW = ['ref', 'literal', 'prompt'] as const;
export type SecretsHow = (typeof SECRETS_HOW)[number];

export type FileFormat = 'json' | 'jsonc' | 'toml';

/** `--format` with `--config` and no `--client`: the service docs' generic shapes. */
export const GENERIC_FORMATS = ['mcpServers', 'servers', 'toml'] as const;
export type GenericFormat = (typeof GENERIC_FORMATS)[number];

/** A server name (--name): letters, digits, '-' and '_', first a letter. Here, not in entry-request.ts, so the CLI wiring can check it without loading the entry code. */
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The platforms whose paths we know; anything else is treated like Linux. */
export type OsFamily = 'darwin' | 'linux' | 'win32';

/**
 * Everything a path depends on. Paths are computed from this, never at import
 * time, so Windows paths can be computed (and golden-tested) on Linux.
 */
export interface ClientEnv {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Absolute project folder for project/local scope. */
  projectDir: string;
  /** File-system probes (default: the real file system); tests pass fakes. */
  fs?: FsProbe;
}

export interface FsProbe {
  exists(path: string): boolean;
  /** Names in a folder; [] when it does not exist. */
  list(path: string): string[];
}

/**
 * How a client expands references to environment variables inside its file.
 * dollar-brace: ${VAR}; env-colon: ${env:VAR}; none: values must be literal.
 */
export type VariableSyntax = 'dollar-brace' | 'env-colon' | 'none';

/** One row of the client table (src/mcp/clients/*.ts). */
export interface ClientSpec {
  id: ClientId;
  /** Name for people: "Claude Desktop". */
  label: string;
  format: FileFormat;
  /** Scopes it has; the first one is the default. */
  scopes: readonly Scope[];
  /** The file that holds the entry for a scope. */
  configPath(env: ClientEnv, scope: Scope): string;
  /**
   * Key path of our entry inside the parsed document, e.g. ['mcpServers', name],
   * ['servers', name], ['projects', absProjectDir, 'mcpServers', name], ['mcp_servers', name].
   */
  entryPath(name: string, scope: Scope, env: ClientEnv): string[];
  /** Key path of the object that holds all server entries (entryPath without the name). */
  serversPath(scope: Scope, env: ClientEnv): string[];
  /** How variables are referenced in the file; 'none' means literal values. */
  variables: VariableSyntax;
  /**
   * True when the client expands ${VAR} everywhere in the entry, args included
   * (Claude Code, Gemini): a ${VAR} meant for mcp-remote would be expanded first.
   */
  expandsInArgs: boolean;
  /** false: the file cannot hold a remote (HTTP) server (Claude Desktop). */
  remoteInFile: boolean;
  /** On Windows, npx must be started as `cmd /c npx` (the client spawns without a shell). */
  windowsCmdWrap: boolean;
  /** A folder whose existence says the client is installed on this machine. */
  detectPath(env: ClientEnv): string;
  /** What to tell the user after a change (one or more sentences). */
  afterChangeNote(scope: Scope): string;
}

/** The literal values of an entry (only those that are needed are set). */
export interface LiteralValues {
  email?: string;
  password?: string;
  token?: string;
}

export interface EntryRequest {
  /** A client, or a generic format (with --config and no --client). */
  target: { client: ClientId } | { format: GenericFormat };
  mode: Mode;
  auth: AuthMethod;
  name: string;
  scope: Scope;
  /** Normalized API base (ends in /api). */
  baseUrl: string;
  /** Remote MCP address. */
  mcpUrl: string;
  /** Package spec for local mode, without the @latest tag (default service-mcp-server). */
  package: string;
  secrets: SecretsHow;
  /** Needed when secrets is 'literal' (or the client has no variables). */
  literals: LiteralValues;
  platform: NodeJS.Platform;
}

/** A VS Code `inputs` item, merged into the file's top-level `inputs` array by id. */
export interface VscodeInput {
  type: 'promptString';
  id: string;
  description: string;
  password?: boolean;
}

export interface RenderedEntry {
  /** The entry's value: a JSON value, or a TOML-ready object for TOML files. */
  value: Record<string, unknown>;
  /** Items to merge into top-level arrays of the same file, by their `id` (VS Code `inputs`). */
  extraTopLevel?: { inputs?: VscodeInput[] };
  /** The entry holds literal secrets: leave the file 0600 and say so on stderr. */
  literalSecrets: boolean;
  /** Variables the user must export for the entry to work. */
  variablesToExport: string[];
  /** What the client needs next and other advice, one sentence each. */
  notes: string[];
}
