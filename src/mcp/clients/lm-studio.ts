// Facts and sources: docs/clients-editors.md.
import type { ClientAddCommand, ClientEnv, ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, probe, resolveFor, underKey } from './paths.js';

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

export function lmStudioHome(env: ClientEnv): string {
  const fromEnv = envOr(env, 'LMSTUDIO_HOME', '');
  if (fromEnv !== '') return resolveFor(env, fromEnv);
  const fs = probe(env);
  const pointer = fs.readText?.(join(env, env.homeDir, '.lmstudio-home-pointer'))?.trim();
  if (pointer) return pointer;
  const cache = join(env, env.homeDir, '.cache', 'lm-studio');
  return fs.exists(cache) ? cache : join(env, env.homeDir, '.lmstudio');
}

/** An Electron app: Node does not start npx.cmd without a shell, so `cmd /c npx` on Windows. */
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
    "Check the server in the Program tab of LM Studio's right-hand sidebar; if it is not there, quit LM Studio and start it again (whether it rereads an mcp.json changed outside its editor is not documented).",
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  startPath: 'session',
  addCommand: lmStudioAddCommand,
};
