// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { envOr, join, probe, projectFile, underKey, xdgConfigHome } from './paths.js';

export function crushConfigDir(env: ClientEnv): string {
  return envOr(env, 'CRUSH_GLOBAL_CONFIG', join(env, xdgConfigHome(env), 'crush'));
}

export const crush: ClientSpec = {
  id: 'crush',
  label: 'Crush',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) => {
    if (scope !== 'project') return join(env, crushConfigDir(env), 'crush.json');
    const plain = projectFile(env, 'crush.json');
    return probe(env).exists(plain) && !probe(env).exists(projectFile(env, '.crush.json'))
      ? plain
      : projectFile(env, '.crush.json');
  },
  ...underKey('mcp'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: crushConfigDir,
  afterChangeNote: () => 'Restart Crush; it reads crush.json at start.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  extraNotes: (request) =>
    request.secrets === 'literal'
      ? [
          'Crush expands $ in every value like a shell ($VAR, $(command)): a literal password or token with a $ in it is changed; use --secrets ref for such values.',
        ]
      : [],
};
