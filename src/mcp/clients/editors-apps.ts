/**
 * Editors and apps: Visual Studio, LM Studio, Antigravity, and their
 * install links. Sources per row; the long form is
 * docs/clients-editors.md.
 */
import { usageError } from '../../errors.js';
import type { ClientAddCommand, ClientEnv, ClientSpec, ClientVersion, EntryRequest, RenderedEntry } from '../types.js';
import { currentPath } from './versions.js';
import { envOr, join, localAppData, probe, projectFile, resolveFor, underKey } from './paths.js';

// Install links (built from the rendered entry, so they add what `svcctl mcp print` shows).

/**
 * Visual Studio (https://learn.microsoft.com/visualstudio/ide/mcp-servers, "Install from the web"):
 * `vsweb+mcp:/install?` + the URL-encoded JSON of one server with its `name`. The dialog it opens is
 * filled with the server; inputs are not documented for the link, so --secrets prompt is refused.
 */
export function visualStudioAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  if (rendered.extraTopLevel?.inputs !== undefined) {
    throw usageError(
      "Visual Studio's install link has no documented place for inputs (--secrets prompt)",
      'use svcctl mcp install --client visual-studio --secrets prompt, which writes the inputs into .mcp.json',
    );
  }
  const json = JSON.stringify({ name: request.name, ...rendered.value });
  const notes = request.scope === 'user' ? [] : [`the install link adds the server where Visual Studio's dialog puts it; for the ${request.scope} file use svcctl mcp install --client visual-studio --scope ${request.scope}.`];
  return { command: null, links: [{ kind: 'visual-studio', url: `vsweb+mcp:/install?${encodeURIComponent(json)}` }], notes };
}

/**
 * LM Studio (https://lmstudio.ai/docs/app/mcp/deeplink): `lmstudio://add_mcp?name=<name>&config=<base64 of
 * the entry>`; its docs' "Add to LM Studio" buttons link https://lmstudio.ai/install-mcp with the same query.
 */
export function lmStudioAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  const config = encodeURIComponent(Buffer.from(JSON.stringify(rendered.value), 'utf8').toString('base64'));
  const query = `name=${encodeURIComponent(request.name)}&config=${config}`;
  return {
    command: null,
    links: [
      { kind: 'lm-studio', url: `lmstudio://add_mcp?${query}` },
      { kind: 'web', url: `https://lmstudio.ai/install-mcp?${query}` },
    ],
    notes: [],
  };
}

/** The folder that holds Visual Studio's per-user data (17.0_<id> folders), only on Windows. */
const visualStudioDataDir = (env: ClientEnv): string => join(env, localAppData(env), 'Microsoft', 'VisualStudio');

function visualStudioNotes(request: EntryRequest): string[] {
  const notes: string[] = [];
  if (request.secrets === 'prompt') notes.push('Visual Studio asks for the inputs through the CodeLens above the server in the file.');
  if (request.scope !== 'local') {
    notes.push(
      'Claude Code reads a .mcp.json too, under "mcpServers" (svcctl leaves that key alone): both keys can share the file; Claude Code reports a file without "mcpServers" as a schema error, and Visual Studio\'s editor may underline "mcpServers" (anthropics/claude-code#45828).',
    );
  }
  if (request.platform !== 'win32') notes.push('Visual Studio runs only on Windows: this file is for Visual Studio on a Windows machine that uses this folder.');
  return notes;
}

/**
 * Visual Studio 2022 17.14+ / 2026 — https://learn.microsoft.com/visualstudio/ide/mcp-servers
 * Reads %USERPROFILE%\.mcp.json (user), <SOLUTIONDIR>\.vs\mcp.json (this user, this solution: svcctl's
 * local scope), <SOLUTIONDIR>\.mcp.json (project; also .vscode/mcp.json and .cursor/mcp.json). Key
 * `servers`; `type` stdio / sse / http, `command` + `args` + `env`, or `url`. `inputs` with
 * `${input:id}` (github/github-mcp-server docs/installation-guides/install-other-copilot-ides.md,
 * Visual Studio section; ids match ^[a-zA-Z0-9_]+$ in the schema Visual Studio 17.14 uses). No
 * environment-variable syntax and no headers field are documented: no --secrets ref, no --mode
 * remote (proxy instead). How it spawns a command on Windows is not documented: `cmd /c npx`.
 * Windows-only: on other systems the same paths under the home and project folders.
 */
export const visualStudio: ClientSpec = {
  id: 'visual-studio',
  label: 'Visual Studio',
  format: 'json',
  scopes: ['user', 'project', 'local'],
  configPath: (env, scope) => {
    if (scope === 'project') return projectFile(env, '.mcp.json');
    if (scope === 'local') return projectFile(env, '.vs', 'mcp.json');
    return join(env, env.homeDir, '.mcp.json');
  },
  ...underKey('servers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  remoteHeadersUndocumented: "Visual Studio's documentation names no field for a remote server's headers",
  windowsCmdWrap: true,
  detectPath: visualStudioDataDir,
  afterChangeNote: () =>
    "Visual Studio reloads the servers when the file is saved; in the Copilot Chat window choose Agent mode and switch the server's tools on in the tool picker (they start off).",
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  promptInputs: true,
  wordInputIds: true,
  guiApp: true,
  extraNotes: visualStudioNotes,
  doctor: {
    entryRule: (name, entry, mode, reinstall) =>
      mode === 'remote' && entry.headers !== undefined
        ? { message: `'${name}': Visual Studio's documentation names no field for a remote server's headers, so whether it sends \`headers\` is not known`, fix: reinstall(' --mode proxy') }
        : undefined,
  },
  addCommand: visualStudioAddCommand,
};

/**
 * LM Studio's home: $LMSTUDIO_HOME, else the folder ~/.lmstudio-home-pointer names, else
 * ~/.cache/lm-studio when it exists, else ~/.lmstudio (lmstudio-ai/lmstudio-js
 * packages/lms-common-server/src/findLMStudioHome.ts, the lookup of the SDK and of `lms`).
 */
export function lmStudioHome(env: ClientEnv): string {
  const fromEnv = envOr(env, 'LMSTUDIO_HOME', '');
  if (fromEnv !== '') return resolveFor(env, fromEnv);
  const fs = probe(env);
  const pointer = fs.readText?.(join(env, env.homeDir, '.lmstudio-home-pointer'))?.trim();
  if (pointer) return pointer;
  const cache = join(env, env.homeDir, '.cache', 'lm-studio');
  return fs.exists(cache) ? cache : join(env, env.homeDir, '.lmstudio');
}

/**
 * LM Studio 0.3.17+ — https://lmstudio.ai/docs/app/mcp ("follows Cursor's mcp.json notation"):
 * <LM Studio home>/mcp.json (~/.lmstudio/mcp.json, %USERPROFILE%\.lmstudio\mcp.json; a home in
 * ~/.cache/lm-studio keeps it there: lmstudio-ai/lmstudio-bug-tracker#1371). Key `mcpServers`;
 * local {command, args, env}, remote {url, headers}. No variable expansion is documented, and
 * lmstudio-ai/lms#389 says its MCP config supports only static Authorization headers: literal
 * values or proxy. An Electron app: `cmd /c npx` on Windows (Node does not start npx.cmd without a shell).
 */
export const lmStudio: ClientSpec = {
  id: 'lm-studio',
  label: 'LM Studio',
  format: 'json',
  scopes: ['user'],
  configPath: (env) => join(env, lmStudioHome(env), 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: lmStudioHome,
  afterChangeNote: () =>
    'Check the server in the Program tab of LM Studio\'s right-hand sidebar; if it is not there, quit LM Studio and start it again (whether it rereads an mcp.json changed outside its editor is not documented).',
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  addCommand: lmStudioAddCommand,
};

/**
 * Antigravity (Google): the IDE and its CLI, `agy`. Facts and sources, with dates, in
 * docs/clients-editors.md ("Antigravity"). Antigravity 2 and agy read one unified file,
 * ~/.gemini/config/mcp_config.json (also on Windows, under %USERPROFILE%), and a workspace's
 * .agents/mcp_config.json; Antigravity 1 read ~/.gemini/antigravity/mcp_config.json, which the
 * newer versions ignore. Key `mcpServers`; remote {serverUrl, headers}, local {command, args,
 * env} with no `type` (an entry with `type: "stdio"` is dropped without a word); `disabled: true`
 * switches a server off. Variables are not expanded: literal values, or a proxy entry.
 */
const unifiedFolder = (env: ClientEnv): string => join(env, env.homeDir, '.gemini', 'config');
const legacyFolder = (env: ClientEnv): string => join(env, env.homeDir, '.gemini', 'antigravity');
const workspaceFile = (env: ClientEnv): string => projectFile(env, '.agents', 'mcp_config.json');

/** Antigravity 2 leaves its unified folder (with mcp_config.json.migrated after moving an old file); agy its own folder. */
const unifiedInstalled = (env: ClientEnv): boolean => {
  const fs = probe(env);
  return fs.exists(unifiedFolder(env)) || fs.exists(join(env, env.homeDir, '.gemini', 'antigravity-cli'));
};

const ANTIGRAVITY_VERSIONS: readonly ClientVersion[] = [
  {
    label: 'Antigravity 2 and agy',
    configPath: (env, scope) => (scope === 'project' ? workspaceFile(env) : join(env, unifiedFolder(env), 'mcp_config.json')),
    installed: unifiedInstalled,
  },
  {
    label: 'Antigravity 1',
    configPath: (env, scope) => (scope === 'project' ? workspaceFile(env) : join(env, legacyFolder(env), 'mcp_config.json')),
    installed: (env) => probe(env).exists(legacyFolder(env)) && !unifiedInstalled(env),
  },
];

export const antigravity: ClientSpec = {
  id: 'antigravity',
  label: 'Antigravity',
  format: 'json',
  scopes: ['user', 'project'],
  versions: ANTIGRAVITY_VERSIONS,
  configPath: (env, scope) => currentPath(ANTIGRAVITY_VERSIONS, env, scope),
  ...underKey('mcpServers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => (unifiedInstalled(env) || !probe(env).exists(legacyFolder(env)) ? unifiedFolder(env) : legacyFolder(env)),
  afterChangeNote: () => 'Quit Antigravity (and agy) completely and start it again; the server shows in the Agent panel under … → MCP Servers (agy: /mcp).',
  shape: { remote: { urlField: 'serverUrl' } },
  guiApp: true,
  doctor: { disabledHint: ', or switch it on in Antigravity (… → MCP Servers → Manage MCP Servers)' },
};
