// Facts and sources: docs/mcp.md.
import type { ClientSpec, Scope, EntryRequest, RenderedEntry } from '../types.js';
import { join, projectFile, underKey, vscodeUserDir } from './paths.js';
import { commandLine, shellFor, type Arg } from '../render/shell-quote.js';
import type { ClientCommand, Entry } from './add-command-helpers.js';

export const vscode: ClientSpec = {
  id: 'vscode',
  label: 'VS Code',
  managedPolicy: 'GitHubCopilot',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope: Scope) =>
    scope === 'project' ? projectFile(env, '.vscode', 'mcp.json') : join(env, vscodeUserDir(env), 'mcp.json'),
  // VS Code reads `servers`; an entry under `mcpServers` is silently ignored.
  ...underKey('servers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  // VS Code starts stdio servers through a shell on Windows, so npx resolves.
  windowsCmdWrap: false,
  detectPath: (env) => vscodeUserDir(env),
  afterChangeNote: () =>
    'In VS Code run "MCP: List Servers" and start the server (or use the Start action above it in mcp.json); values from inputs are asked for at the first start.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  promptInputs: true,
  guiApp: true,
  startPath: 'login-shell',
  extraNotes: (request) =>
    request.secrets === 'ref' && request.mode === 'remote'
      ? [
          'Some VS Code versions do not substitute ${env:VAR} in headers (microsoft/vscode#336232); if the server rejects the login, use --secrets prompt.',
        ]
      : [],
  doctor: { ignoredKey: { ignoredKey: 'mcpServers', readKey: 'servers' } },
  addCommand: vscodeAddCommand,
};

function vscodeServerJson(request: EntryRequest, rendered: RenderedEntry): Entry {
  const json: Entry = { name: request.name, ...rendered.value };
  if (rendered.extraTopLevel?.inputs) json.inputs = rendered.extraTopLevel.inputs;
  return json;
}

export function vscodeAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  const command = vscodeAddCommandFor('code', 'vscode')(request, rendered);
  // GitHub and most web pages do not open vscode: links; this redirect does.
  const link = command.links[0]!.url;
  command.links.push({ kind: 'web', url: `https://insiders.vscode.dev/redirect?url=${encodeURIComponent(link)}` });
  return command;
}

/** `code --add-mcp` and the `vscode:` link; VS Code Insiders has its own program and scheme. */
export function vscodeAddCommandFor(
  program: string,
  scheme: string,
): (request: EntryRequest, rendered: RenderedEntry) => ClientCommand {
  return (request, rendered) => {
    const json = JSON.stringify(vscodeServerJson(request, rendered));
    const argv: Arg[] = [request.platform === 'win32' ? `${program}.cmd` : program, '--add-mcp', json];
    const notes =
      request.scope === 'project'
        ? [
            `${program} --add-mcp and the install link add the server to the user profile; for the workspace use svcctl mcp install --client vscode --scope project.`,
          ]
        : [];
    // --add-mcp takes only JSON, whose inner " PowerShell strips when it starts a .cmd program: the link instead.
    const powershell = shellFor(request) === 'powershell';
    if (powershell)
      notes.push(
        `no \`${program} --add-mcp\` line for PowerShell, which strips the double quotes of its JSON: open the link, or use svcctl mcp install.`,
      );
    return {
      command: powershell ? null : commandLine(argv, 'posix-or-fish'),
      links: [{ kind: 'vscode', url: `${scheme}:mcp/install?${encodeURIComponent(json)}` }],
      notes,
    };
  };
}
