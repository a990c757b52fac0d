// Facts and sources: docs/clients-editors.md.
import { usageError } from '../../core/errors.js';
import type { ClientAddCommand, ClientEnv, ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { join, localAppData, projectFile, underKey } from './paths.js';

/** Inputs are not documented for the link, so --secrets prompt is refused. */
export function visualStudioAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  if (rendered.extraTopLevel?.inputs !== undefined) {
    throw usageError(
      "Visual Studio's install link has no documented place for inputs (--secrets prompt)",
      'use svcctl mcp install --client visual-studio --secrets prompt, which writes the inputs into .mcp.json',
    );
  }
  const json = JSON.stringify({ name: request.name, ...rendered.value });
  const notes =
    request.scope === 'user'
      ? []
      : [
          `the install link adds the server where Visual Studio's dialog puts it; for the ${request.scope} file use svcctl mcp install --client visual-studio --scope ${request.scope}.`,
        ];
  return {
    command: null,
    links: [{ kind: 'visual-studio', url: `vsweb+mcp:/install?${encodeURIComponent(json)}` }],
    notes,
  };
}

const visualStudioDataDir = (env: ClientEnv): string => join(env, localAppData(env), 'Microsoft', 'VisualStudio');

function visualStudioNotes(request: EntryRequest): string[] {
  const notes: string[] = [];
  if (request.secrets === 'prompt')
    notes.push('Visual Studio asks for the inputs through the CodeLens above the server in the file.');
  if (request.scope !== 'local') {
    notes.push(
      'Claude Code reads a .mcp.json too, under "mcpServers" (svcctl leaves that key alone): both keys can share the file; Claude Code reports a file without "mcpServers" as a schema error, and Visual Studio\'s editor may underline "mcpServers" (anthropics/claude-code#45828).',
    );
  }
  if (request.platform !== 'win32')
    notes.push(
      'Visual Studio runs only on Windows: this file is for Visual Studio on a Windows machine that uses this folder.',
    );
  return notes;
}

/** No variable syntax and no headers field are documented: no --secrets ref, no --mode remote (proxy instead). */
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
        ? {
            message: `'${name}': Visual Studio's documentation names no field for a remote server's headers, so whether it sends \`headers\` is not known`,
            fix: reinstall(' --mode proxy'),
          }
        : undefined,
  },
  addCommand: visualStudioAddCommand,
};
