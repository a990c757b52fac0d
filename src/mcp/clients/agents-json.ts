/**
 * CLI agents whose JSON files hold `mcpServers`-style entries:
 * GitHub Copilot CLI, Qwen Code, Augment (auggie), Factory droid, Amp and
 * Crush. Each fact's source is in docs/clients-agents.md; "checked" means run
 * offline against the pinned npm release in a temp HOME (scripts/check-real-clients.sh).
 */
import type { ClientEnv, ClientSpec, Scope } from '../types.js';
import { ampAddCommand, auggieAddCommand, copilotAddCommand, droidAddCommand, qwenAddCommand } from './agents-add-commands.js';
import { envOr, join, probe, projectFile, underKey, xdgConfigHome } from './paths.js';

/** $COPILOT_HOME, default ~/.copilot on every OS (`copilot mcp --help` 1.0.102; https://github.com/github/docs/pull/41226). */
export function copilotHome(env: ClientEnv): string {
  return envOr(env, 'COPILOT_HOME', join(env, env.homeDir, '.copilot'));
}

export const copilot: ClientSpec = {
  id: 'copilot',
  label: 'GitHub Copilot CLI',
  format: 'json',
  // `copilot mcp --help` 1.0.102: User ~/.copilot/mcp-config.json, Workspace .mcp.json or .github/mcp.json.
  scopes: ['user', 'project'],
  configPath: (env, scope) => (scope === 'project' ? projectFile(env, '.github', 'mcp.json') : join(env, copilotHome(env), 'mcp-config.json')),
  ...underKey('mcpServers'),
  // $VAR, ${VAR}, ${VAR:-default} in env (github/copilot-cli#903, v1.0.10) and headers (changelog 1.0.x).
  variables: 'dollar-brace',
  // Args are not documented as expanded: the mcp-remote headers stay ${NAME}.
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: copilotHome,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Copilot CLI session in the project and trust the folder when asked (workspace servers load only in trusted folders); /mcp lists the servers.'
      : 'Start a new Copilot CLI session (it reads mcp-config.json at start); `copilot mcp list` shows the server.',
  // What `copilot mcp add` writes: tools ["*"] and type local | http.
  shape: { stdioFields: { type: 'local' }, trailingFields: { tools: ['*'] }, remote: { urlField: 'url', fields: { type: 'http' } } },
  addCommand: copilotAddCommand,
};

/** $QWEN_HOME, default ~/.qwen (Qwen Code 0.24.4 resolveQwenHome, checked). */
export function qwenHome(env: ClientEnv): string {
  return envOr(env, 'QWEN_HOME', join(env, env.homeDir, '.qwen'));
}

export const qwen: ClientSpec = {
  id: 'qwen',
  label: 'Qwen Code',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) => (scope === 'project' ? projectFile(env, '.qwen', 'settings.json') : join(env, qwenHome(env), 'settings.json')),
  ...underKey('mcpServers'),
  // $VAR and ${VAR} over the whole settings object, args included; no ${VAR:-default}; unset stays as written.
  variables: 'dollar-brace',
  bareVariables: true,
  expandsInArgs: true,
  keepsUnsetReferences: true,
  remoteInFile: true,
  // Not documented for Windows; `cmd /c npx` works whether or not it resolves npx.cmd itself.
  windowsCmdWrap: true,
  detectPath: qwenHome,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Qwen Code session in the project (project settings load only in a trusted folder); `qwen mcp list` shows the server.'
      : 'Start a new Qwen Code session; `qwen mcp list` shows the server.',
  // Streamable HTTP is `httpUrl`: Qwen Code 0.24.4 lists `url` (even with type "http") as SSE (checked).
  shape: { remote: { urlField: 'httpUrl' } },
  doctor: {
    entryRule: (name, entry, mode, reinstall) =>
      mode === 'remote' && typeof entry.httpUrl !== 'string'
        ? {
            message: `'${name}': Qwen Code reads \`url\` as SSE (whatever \`type\` says), and this server speaks Streamable HTTP`,
            fix: `rename url to httpUrl, or reinstall: ${reinstall(' --mode remote')}`,
          }
        : undefined,
  },
  addCommand: qwenAddCommand,
};

/** ~/.augment on every OS (auggie 0.36.0: HOME, else USERPROFILE). */
const augmentDir = (env: ClientEnv): string => join(env, env.homeDir, '.augment');

export const auggie: ClientSpec = {
  id: 'auggie',
  label: 'Augment (auggie)',
  format: 'json',
  // auggie 0.36.0 `mcp add --project | --local`: .augment/settings.json and .augment/settings.local.json.
  scopes: ['user', 'project', 'local'],
  configPath: (env, scope: Scope) => {
    if (scope === 'project') return projectFile(env, '.augment', 'settings.json');
    if (scope === 'local') return projectFile(env, '.augment', 'settings.local.json');
    return join(env, augmentDir(env), 'settings.json');
  },
  ...underKey('mcpServers'),
  // ${VAR} and ${VAR:-default} in command, args, env, url and headers; \${ is a literal ${; unset without default: the server fails to start.
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: augmentDir,
  afterChangeNote: () => 'Start a new auggie session; `auggie mcp list` shows the server.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  addCommand: auggieAddCommand,
};

const factoryDir = (env: ClientEnv): string => join(env, env.homeDir, '.factory');

export const droid: ClientSpec = {
  id: 'droid',
  label: 'Factory Droid',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) => (scope === 'project' ? projectFile(env, '.factory', 'mcp.json') : join(env, factoryDir(env), 'mcp.json')),
  ...underKey('mcpServers'),
  // droid 0.215.0 (checked): ${VAR} and ${VAR:-default} in env and headers; args are passed as written.
  variables: 'dollar-brace',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: factoryDir,
  afterChangeNote: () => 'Start a new droid session (or open /mcp in droid); `droid mcp list` shows the server and whether it connects.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  doctor: { disabledHint: ', or switch it on in droid with /mcp' },
  addCommand: droidAddCommand,
};

/** ~/.config/amp on macOS and Linux (`amp --help`), %USERPROFILE%\.config\amp on Windows (https://ampcode.com/manual). */
const ampDir = (env: ClientEnv): string => join(env, env.homeDir, '.config', 'amp');

export const amp: ClientSpec = {
  id: 'amp',
  label: 'Amp',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) => (scope === 'project' ? projectFile(env, '.amp', 'settings.json') : join(env, ampDir(env), 'settings.json')),
  // A flat key with a dot in it, not nested (what `amp mcp add` writes).
  ...underKey('amp.mcpServers'),
  // ${VAR} in env and headers per the Amp manual; args are not documented as expanded.
  variables: 'dollar-brace',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: ampDir,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Approve the workspace server with `amp mcp approve <name>`, then start a new Amp thread; `amp mcp list` shows it.'
      : 'Start a new Amp thread; `amp mcp list` shows the server.',
  // No type field: Amp picks Streamable HTTP or SSE itself.
  shape: { remote: { urlField: 'url' } },
  addCommand: ampAddCommand,
};

/** $CRUSH_GLOBAL_CONFIG, else $XDG_CONFIG_HOME/crush, else ~/.config/crush on every OS (charmbracelet/crush internal/config/load.go). */
export function crushConfigDir(env: ClientEnv): string {
  return envOr(env, 'CRUSH_GLOBAL_CONFIG', join(env, xdgConfigHome(env), 'crush'));
}

export const crush: ClientSpec = {
  id: 'crush',
  label: 'Crush',
  format: 'json',
  scopes: ['user', 'project'],
  // Project: .crush.json or crush.json (.crush.json wins); an existing crush.json is kept.
  configPath: (env, scope) => {
    if (scope !== 'project') return join(env, crushConfigDir(env), 'crush.json');
    const plain = projectFile(env, 'crush.json');
    return probe(env).exists(plain) && !probe(env).exists(projectFile(env, '.crush.json')) ? plain : projectFile(env, '.crush.json');
  },
  ...underKey('mcp'),
  // Shell expansion ($VAR, ${VAR}, ${VAR:-default}, $(command)) of url, headers, args and env.
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: crushConfigDir,
  afterChangeNote: () => 'Restart Crush; it reads crush.json at start.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  extraNotes: (request) =>
    request.secrets === 'literal'
      ? ['Crush expands $ in every value like a shell ($VAR, $(command)): a literal password or token with a $ in it is changed; use --secrets ref for such values.']
      : [],
};
