/**
 * LM Studio: its row of the client table, with its own add command or install
 * link and doctor rules where it has them. Facts and sources: docs/clients-editors.md.
 */
import type { ClientAddCommand, ClientEnv, ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, probe, resolveFor, underKey } from './paths.js';

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
