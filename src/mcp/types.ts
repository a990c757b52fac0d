/**
 * Shared types of `svcctl mcp`: which clients exist, what a client's table row
 * says about it, what is asked for (EntryRequest) and what gets written
 * (RenderedEntry). WHAT is written lives in clients/ (the rows) and render/; HOW it is
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
  'opencode',
  'kilo',
  'copilot',
  'qwen',
  'auggie',
  'droid',
  'amp',
  'crush',
  'roo-code',
  'zoo-code',
  'kiro',
  'goose',
  'visual-studio',
  'lm-studio',
  'antigravity',
  'continue',
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

export const MODES = ['local', 'remote', 'proxy'] as const;
export type Mode = (typeof MODES)[number];

export const AUTH_METHODS = ['password', 'bearer'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** --token (with --auth bearer): helper = svcctl hands out a fresh token on every connection; static = the token (or its variable) in the entry. */
export const TOKEN_HOW = ['helper', 'static'] as const;
export type TokenHow = (typeof TOKEN_HOW)[number];

export const SCOPES = ['user', 'project', 'local'] as const;
export type Scope = (typeof SCOPES)[number];

/** ref: references to the user's environment; literal: values in the file; prompt: VS Code inputs. */
export const SECRETS_HOW = ['ref', 'literal', 'prompt'] as const;
export type SecretsHow = (typeof SECRETS_HOW)[number];

export type FileFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

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
  /** A small text file's content; undefined when it cannot be read (a probe without it reads nothing). */
  readText?(path: string): string | undefined;
}

/**
 * How a client expands references to environment variables inside its file.
 * dollar-brace: ${VAR}; env-colon: ${env:VAR}; env-brace: {env:VAR} (opencode,
 * Kilo); none: values must be literal. render/values.ts (variableReference)
 * is the one place that writes them, doctor/references.ts reads them.
 */
export type VariableSyntax = 'dollar-brace' | 'env-colon' | 'env-brace' | 'none';

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
  /** Why remoteInFile is false, and where else a remote server can be added (the usage error and doctor's fix say so). */
  noRemote?: { why: string; elsewhere?: string };
  /**
   * The file holds remote servers, but no source names a field for their
   * headers (Visual Studio): --mode remote, which needs headers to log in, is
   * refused with this reason; --mode proxy (headers in mcp-remote's env) works.
   */
  remoteHeadersUndocumented?: string;
  /** On Windows, npx must be started as `cmd /c npx` (the client spawns without a shell). */
  windowsCmdWrap: boolean;
  /** A folder whose existence says the client is installed on this machine. */
  detectPath(env: ClientEnv): string;
  /** What to tell the user after a change (one or more sentences). */
  afterChangeNote(scope: Scope): string;
  /** How its entries look (JSON clients); unused when `renderer` writes the entry. */
  shape: EntryShape;
  /** Writes the entry itself instead of the JSON shape (Codex: render/codex.ts). */
  renderer?: EntryRenderer;
  /**
   * YAML key paths whose value is a list of entries found by their `name:` (Continue's `mcpServers`):
   * the entry path ['mcpServers', name] is then that list's item (files/yaml-document.ts namedLists).
   */
  namedLists?: readonly (readonly string[])[];
  /** Top-level fields a new file starts with, before the entry (Continue's config.yaml needs name and version). */
  newFileFields?: Record<string, unknown>;
  /** Also $VAR without braces (Gemini CLI). */
  bareVariables?: boolean;
  /**
   * Expands ${VAR} in args but has no ${VAR:-default} and keeps a reference to
   * an unset variable as written (Qwen Code): mcp-remote's --header arguments
   * then name variables only the entry's env block sets (PROXY_HEADER_PREFIX…),
   * so the client leaves them for mcp-remote and no secret reaches argv.
   */
  keepsUnsetReferences?: boolean;
  /** Forwards variables by name instead of expanding them (Codex env_vars), so --secrets ref works without a syntax. */
  forwardsByName?: boolean;
  /** Takes --secrets prompt (VS Code inputs). */
  promptInputs?: boolean;
  /** Input ids may hold only letters, digits and `_` (Visual Studio's schema): `<name>_<key>` with `-` written `_`. */
  wordInputIds?: boolean;
  /** Started from a dock or start menu: may not see variables exported in a shell profile (a note with --secrets ref). */
  guiApp?: boolean;
  /** Extra notes after a change (after the GUI note), e.g. a known bug of the client with references. */
  extraNotes?(request: EntryRequest): string[];
  /**
   * The client runs a command to get a remote entry's headers (Claude Code's
   * `headersHelper`): with --token helper, a remote entry names
   * `svcctl token --refresh --json-headers` there; a client without one gets
   * an entry that runs `svcctl mcp proxy` instead.
   */
  headersCommand?: HeadersCommand;
  /** What `svcctl mcp doctor` knows about how the client reads (or ignores) entries. */
  doctor?: DoctorRules;
  /** The client's own `mcp add` command line and/or install links (`svcctl mcp print --command`). */
  addCommand?(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand;
  /**
   * The versions of the client svcctl knows, newest first, when they read different
   * files: `configPath` is then where the installed version reads (clients/versions.ts),
   * and the other versions' files are stale: list and doctor flag an entry that sits
   * only there, install moves it, uninstall removes it from every one.
   */
  versions?: readonly ClientVersion[];
  /** The client was shut down: installing for it warns with this notice (entries can still be listed and removed). */
  discontinued?: string;
  /**
   * Another client that replaces this one and does not read its file (Gemini CLI → agy): when it is
   * installed and has no entry of ours, list and doctor say so.
   */
  replacedBy?: { client: ClientId; label: string; installed(env: ClientEnv): boolean };
}

/** One version (or generation) of a client, and the file it reads. */
export interface ClientVersion {
  /** For people: "Antigravity 2 and agy". */
  label: string;
  /** The file this version reads for a scope. */
  configPath(env: ClientEnv, scope: Scope): string;
  /** Where in that file its server entries are, when versions differ there too (opencode 2: ['mcp', 'servers']). */
  serversPath?(scope: Scope, env: ClientEnv): string[];
  /** Other places of the same file it reads too (opencode 1.18.25 and later read `mcp.servers` as well as `mcp`). */
  alsoReads?(scope: Scope, env: ClientEnv): string[][];
  /** Keys whose mere presence makes it refuse the whole file (opencode 1 before 1.18.25: `mcp.servers`). */
  refuses?(scope: Scope, env: ClientEnv): string[][];
  /** What lifts the refusal, for the message ("opencode 1.18.25 and later read both: upgrade opencode"). */
  upgradeNote?: string;
  /** True when this version is on this machine (a marker file, a folder); gets the probe, never process.env. */
  installed(env: ClientEnv): boolean;
}

/** The JSON entry shape of a client, per mode (render/json-clients.ts reads it). */
export interface EntryShape {
  /** Fixed fields put first in local and proxy (stdio) entries: { type: 'stdio' }, Zed's { source: 'custom' }. */
  stdioFields?: Record<string, unknown>;
  /** Program and arguments in one array under `command`, no `args` (opencode, Kilo). */
  commandArray?: boolean;
  /** The field of a stdio entry that holds the server's environment (default `env`; opencode: `environment`). */
  envField?: string;
  /** Fixed fields put last in every entry (Copilot CLI's `tools: ["*"]`). */
  trailingFields?: Record<string, unknown>;
  /** Remote entries: the field holding the URL, and fixed fields put first (the transport, e.g. { type: 'http' }). */
  remote: { urlField: string; fields?: Record<string, unknown> };
}

/** How a client runs a command for a remote entry's headers. */
export interface HeadersCommand {
  /** The entry's field that holds the command (a string). */
  field: string;
  /** The command is run by a shell (so it is one string, quoted for sh). */
  shell: boolean;
  /** What it must print: a JSON object of header names to string values. */
  output: 'json-headers';
  /** The longest the client waits for it, in ms. */
  timeoutMs: number;
  /** Variables the client adds to the command's environment: name → what it holds. */
  env: Record<string, 'server-name' | 'server-url'>;
}

/** A renderer a row names instead of the JSON shape: the entry value per mode. */
export interface EntryRenderer {
  local(client: ClientSpec, request: EntryRequest): Record<string, unknown>;
  remote(client: ClientSpec, request: EntryRequest): Record<string, unknown>;
  proxy(client: ClientSpec, request: EntryRequest): Record<string, unknown>;
  /** The variable that carries a bearer token in a proxy entry (default SERVICE_ACCESS_TOKEN). */
  proxyTokenVariable?(platform: NodeJS.Platform): string;
}

/** What a client does with entries that doctor reads; each answer is a failing check with a fix, or undefined. */
export interface DoctorRules {
  /** Where a disabled server is switched on in the client's UI (", or switch it on in …"), by the field that switched it off. */
  disabledHint?: string | ((field: 'disabled' | 'enabled') => string);
  /** A key people write that the client ignores (VS Code reads `servers`, not `mcpServers`). */
  ignoredKey?: { ignoredKey: string; readKey: string };
  /** The only field it reads literal headers from (Codex: http_headers); default headers, http_headers, requestOptions.headers. */
  headersField?: string;
  /** An entry the client refuses or misreads; `reinstall(extra)` is the svcctl command line that fixes it. */
  entryRule?(name: string, entry: Record<string, unknown>, mode: Mode, reinstall: (extra?: string) => string): DoctorFailure | undefined;
  /** The fix for references it does not expand (when `variables` is 'none'). */
  unexpandedFix?(names: string[], reinstall: string): string;
}

export interface DoctorFailure {
  message: string;
  fix: string;
}

export interface ClientAddCommand {
  /** The command line, quoted for the user's shell; null when the client has only links. */
  command: string | null;
  links: { kind: string; url: string }[];
  notes: string[];
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
  /** --auth bearer --token helper: svcctl keeps the token fresh (the entry holds no token). */
  tokenHelper?: TokenHelper;
  /** --allow-http (or SVCCTL_ALLOW_HTTP) at install: the svcctl the helper entry runs gets --allow-http for a plain-http URL. */
  allowHttp?: true;
}

/** How an entry starts svcctl (src/mcp/install/svcctl-command.ts). */
export interface SvcctlCommand {
  /** [node, /abs/bin/svcctl.js] ('path'), ['npx', '-y', 'svcctl@<version>'] ('npx'), or ['svcctl'] ('name'). */
  argv: string[];
  how: 'path' | 'npx' | 'name';
}

export interface TokenHelper {
  /** How the entry starts svcctl. */
  svcctl: SvcctlCommand;
  /** Whether svcctl can log in again by itself (a password remembered in the OS keychain). */
  canRefresh: boolean;
  /** When it cannot: whether a token is saved (and when it expires), and why there is no OS keychain here, if there is none. */
  saved?: { expiresAt: string | null } | null;
  noKeychain?: string;
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
