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
  'vscode-insiders',
  'cline-cli',
  'amazon-q',
  'warp',
  'kimi',
  'xcode-copilot',
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

export const MODES = ['local', 'remote', 'proxy'] as const;
export type Mode = (typeof MODES)[number];

export const AUTH_METHODS = ['password', 'bearer'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const TOKEN_HOW = ['helper', 'static'] as const;
export type TokenHow = (typeof TOKEN_HOW)[number];

export const SCOPES = ['user', 'project', 'local'] as const;
export type Scope = (typeof SCOPES)[number];

export const SECRETS_HOW = ['ref', 'literal', 'prompt'] as const;
export type SecretsHow = (typeof SECRETS_HOW)[number];

/** The shells `--shell` names for the lines svcctl prints to paste. */
export const PASTE_SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type PasteShell = (typeof PASTE_SHELLS)[number];

export type FileFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

export const GENERIC_FORMATS = ['mcpServers', 'servers', 'toml'] as const;
export type GenericFormat = (typeof GENERIC_FORMATS)[number];

/** Here, not in entry-request.ts, so the CLI wiring can check a name without loading the entry code. */
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

export type OsFamily = 'darwin' | 'linux' | 'win32';

/** Paths are computed from this, never at import time, so Windows paths can be golden-tested on Linux. */
export interface ClientEnv {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  projectDir: string;
  /** The folder Claude Code keys its local scope by (a linked work tree's main one); projectDir when not set. */
  projectKeyDir?: string;
  fs?: FsProbe;
  /** For an extension client: the app of the VS Code family whose storage to use (its user data folder's name). */
  editorHost?: string;
}

/** An app of the VS Code family: the folder of its user data (`<app data>/<folder>`) and its name. */
export interface EditorHost {
  folder: string;
  label: string;
}

export interface FsProbe {
  exists(path: string): boolean;
  list(path: string): string[];
  readText?(path: string): string | undefined;
}

/** ${VAR}, ${env:VAR}, {env:VAR}, or literal only; render/values.ts writes them and doctor/references.ts reads them. */
export type VariableSyntax = 'dollar-brace' | 'env-colon' | 'env-brace' | 'none';

export interface ClientSpec {
  id: ClientId;
  label: string;
  format: FileFormat;
  /** The first one is the default. */
  scopes: readonly Scope[];
  configPath(env: ClientEnv, scope: Scope): string;
  entryPath(name: string, scope: Scope, env: ClientEnv): string[];
  serversPath(scope: Scope, env: ClientEnv): string[];
  variables: VariableSyntax;
  /** It expands ${VAR} in args too (Claude Code, Gemini), so a ${VAR} meant for mcp-remote is expanded first. */
  expandsInArgs: boolean;
  remoteInFile: boolean;
  noRemote?: { why: string; elsewhere?: string };
  /** Why --mode proxy (mcp-remote) is refused: Warp fills ${VAR} in args with no way to pass one through. */
  noProxy?: string;
  /** No source names a headers field (Visual Studio): --mode remote is refused with this reason; proxy still works. */
  remoteHeadersUndocumented?: string;
  /** The client spawns without a shell, so on Windows npx must run as `cmd /c npx`. */
  windowsCmdWrap: boolean;
  detectPath(env: ClientEnv): string;
  afterChangeNote(scope: Scope): string;
  shape: EntryShape;
  renderer?: EntryRenderer;
  namedLists?: readonly (readonly string[])[];
  newFileFields?: Record<string, unknown>;
  bareVariables?: boolean;
  /** Qwen Code keeps an unset ${VAR} as written, so mcp-remote's --header args name variables only its env sets. */
  keepsUnsetReferences?: boolean;
  forwardsByName?: boolean;
  promptInputs?: boolean;
  wordInputIds?: boolean;
  /** Started from a dock or start menu, it may not see variables exported in a shell profile. */
  guiApp?: boolean;
  /** Where a GUI client's PATH comes from when it starts from a dock or launcher: 'login-shell', it runs the user's
   * login shell at start and takes its environment (VS Code and its forks and extensions, Zed); 'session', only the
   * desktop session's PATH (Claude Desktop, LM Studio). Sources: docs/mcp-gui.md. */
  startPath?: 'login-shell' | 'session';
  /** It starts stdio servers with its whole environment (Claude Code, opencode, Qwen Code, droid; docs/mcp-gui.md). */
  passesEnvironment?: boolean;
  extraNotes?(request: EntryRequest): string[];
  /** A client without one gets a proxy entry for --token helper instead of a remote entry with headers. */
  headersCommand?: HeadersCommand;
  doctor?: DoctorRules;
  addCommand?(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand;
  /** When versions read different files: configPath is the installed one's; an entry only in another is stale. */
  versions?: readonly ClientVersion[];
  /** A VS Code extension (Cline, Roo, Zoo): the apps of the VS Code family whose storage has it (clients/extension-hosts.ts). */
  hostsWithExtension?(env: ClientEnv): EditorHost[];
  discontinued?: string;
  /** The managed policy files that can block the client's MCP servers (install/policy.ts, docs/mcp.md "Policies"). */
  managedPolicy?: PolicyFamily;
  replacedBy?: { client: ClientId; label: string; installed(env: ClientEnv): boolean };
}

export interface ClientVersion {
  label: string;
  configPath(env: ClientEnv, scope: Scope): string;
  serversPath?(scope: Scope, env: ClientEnv): string[];
  alsoReads?(scope: Scope, env: ClientEnv): string[][];
  refuses?(scope: Scope, env: ClientEnv): string[][];
  upgradeNote?: string;
  /** Gets the probe, never process.env. */
  installed(env: ClientEnv): boolean;
}

export interface EntryShape {
  stdioFields?: Record<string, unknown>;
  commandArray?: boolean;
  envField?: string;
  trailingFields?: Record<string, unknown>;
  remote: { urlField: string; fields?: Record<string, unknown> };
}

export interface HeadersCommand {
  field: string;
  shell: boolean;
  output: 'json-headers';
  timeoutMs: number;
  env: Record<string, 'server-name' | 'server-url'>;
}

export interface EntryRenderer {
  local(client: ClientSpec, request: EntryRequest): Record<string, unknown>;
  remote(client: ClientSpec, request: EntryRequest): Record<string, unknown>;
  proxy(client: ClientSpec, request: EntryRequest): Record<string, unknown>;
  proxyTokenVariable?(platform: NodeJS.Platform): string;
  /** The client's own form of a plain stdio entry ({command, args, env}), for the token helper's `svcctl mcp proxy`. */
  stdio?(request: EntryRequest, entry: Record<string, unknown>): Record<string, unknown>;
}

export interface DoctorRules {
  disabledHint?: string | ((field: 'disabled' | 'enabled') => string);
  ignoredKey?: { ignoredKey: string; readKey: string };
  headersField?: string;
  entryRule?(
    name: string,
    entry: Record<string, unknown>,
    mode: Mode,
    reinstall: (extra?: string) => string,
  ): DoctorFailure | undefined;
  unexpandedFix?(names: string[], reinstall: string): string;
}

export interface DoctorFailure {
  message: string;
  fix: string;
}

export interface ClientAddCommand {
  /** null when the client has only links. */
  command: string | null;
  links: { kind: string; url: string }[];
  notes: string[];
}

export interface LiteralValues {
  email?: string;
  password?: string;
  token?: string;
}

export interface EntryRequest {
  /** host: for an extension client, the EditorHost folder to write (mcp install writes each that has it). */
  target: { client: ClientId; host?: string } | { format: GenericFormat };
  mode: Mode;
  auth: AuthMethod;
  name: string;
  scope: Scope;
  baseUrl: string;
  mcpUrl: string;
  package: string;
  secrets: SecretsHow;
  literals: LiteralValues;
  platform: NodeJS.Platform;
  /** The shell of the lines to paste (`--shell`); without it, by the platform (render/shell-quote.ts). */
  shell?: PasteShell;
  tokenHelper?: TokenHelper;
  allowHttp?: true;
  /** npx outside the PATH a GUI client gets: its absolute path, and the PATH its `#!/usr/bin/env node` needs. */
  runner?: RunnerPath;
  /** npx was found but its path cannot go into the entry (Windows: cmd.exe would misread it): why, for the note. */
  runnerUnwritten?: string;
  /** NODE_EXTRA_CA_CERTS where svcctl runs: local and proxy entries carry it for clients that clean the environment. */
  caCerts?: string;
}

export interface RunnerPath {
  command: string;
  path: string;
}

export interface SvcctlCommand {
  /** [node, /abs/bin/svcctl.js], ['npx', '-y', 'svcctl@<version>'], or ['svcctl']. */
  argv: string[];
  how: 'path' | 'npx' | 'name';
}

export interface TokenHelper {
  svcctl: SvcctlCommand;
  /** A password remembered in the OS keychain lets svcctl log in again by itself. */
  canRefresh: boolean;
  /** When it cannot: whether a token is saved (and when it expires), and why there is no OS keychain here, if there is none. */
  saved?: { expiresAt: string | null } | null;
  noKeychain?: string;
}

export interface VscodeInput {
  type: 'promptString';
  id: string;
  description: string;
  password?: boolean;
}

export interface RenderedEntry {
  value: Record<string, unknown>;
  extraTopLevel?: { inputs?: VscodeInput[] };
  /** Literal secrets: the file stays 0600 and stderr says so. */
  literalSecrets: boolean;
  variablesToExport: string[];
  notes: string[];
}

/** Whose managed policy files govern a client's MCP servers: the name of their system folder. */
export type PolicyFamily = 'ClaudeCode' | 'GitHubCopilot';
