/**
 * Visual Studio: its row of the client table, with its own add command or install
 * link and doctor rules where it has them. Facts and sources: docs/clients-editors.md.
 */
import { usageError } from '../../core/errors.js';
import type { ClientAddCommand, ClientEnv, ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { join, localAppData, projectFile, underKey } from './paths.js';

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
