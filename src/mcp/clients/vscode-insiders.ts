// Facts and sources: docs/clients-editors.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { appSupportDir, join } from './paths.js';
import { vscode, vscodeAddCommandFor } from './vscode.js';

/** VS Code's user folder is named after the product ("Code - Insiders"), so the user file moves; nothing else does. */
const insidersUserDir = (env: ClientEnv): string => join(env, appSupportDir(env, 'Code - Insiders'), 'User');

/** One scope: the workspace file is the same `.vscode/mcp.json` as VS Code's (`--client vscode --scope project`). */
export const vscodeInsiders: ClientSpec = {
  ...vscode,
  id: 'vscode-insiders',
  label: 'VS Code Insiders',
  scopes: ['user'],
  configPath: (env) => join(env, insidersUserDir(env), 'mcp.json'),
  detectPath: insidersUserDir,
  afterChangeNote: () =>
    'In VS Code Insiders run "MCP: List Servers" and start the server; values from inputs are asked for at the first start.',
  addCommand: vscodeAddCommandFor('code-insiders', 'vscode-insiders'),
};
