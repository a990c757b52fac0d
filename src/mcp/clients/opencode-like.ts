/**
 * The rows of opencode and of Kilo Code's CLI (a fork that reads the same
 * shape): files, entry shape, versions (opencode 2), `mcp add` line, doctor rule.
 */
import { usageError } from '../../errors.js';
import type { ClientAddCommand, ClientEnv, ClientSpec, ClientVersion, EntryRequest, RenderedEntry, Scope } from '../types.js';
import { join, probe, resolveFor, xdgConfigHome } from './paths.js';
import { programOnPath, programVersion } from './program-version.js';
import { currentServersPath } from './versions.js';
import { commandLine, shellFor, type Arg } from './shell-quote.js';

/** The first of the names that exists in the folder, else the default. */
function existingOr(env: ClientEnv, dir: string, names: readonly string[], fallback: string): string {
  const fs = probe(env);
  const found = names.find((name) => fs.exists(join(env, dir, name)));
  return join(env, dir, found ?? fallback);
}

interface OpencodeLike {
  id: 'opencode' | 'kilo';
  label: string;
  /** The program, its config folder under XDG_CONFIG_HOME and its config file base names, read in this order. */
  program: string;
  folder: string;
  userNames: readonly string[];
  projectNames: readonly string[];
  projectDefault: string;
}

function addCommand(app: OpencodeLike) {
  return (request: EntryRequest, rendered: RenderedEntry): ClientAddCommand => {
    if (request.scope !== 'user') {
      throw usageError(`\`${app.program} mcp add\` writes the user config`, `use svcctl mcp install --client ${app.id} --scope ${request.scope}`);
    }
    const entry = rendered.value;
    const pairs = (value: unknown): string[] => Object.entries((value ?? {}) as Record<string, string>).map(([key, item]) => `${key}=${item}`);
    const argv: Arg[] = [app.program, 'mcp', 'add', request.name];
    if (entry.type === 'remote') {
      argv.push('--url', String(entry.url));
      for (const header of pairs(entry.headers)) argv.push('--header', header);
    } else {
      for (const variable of pairs(entry.environment)) argv.push('--env', variable);
      argv.push('--', ...(entry.command as string[]));
    }
    return { command: commandLine(argv, shellFor(request.platform)), links: [], notes: [] };
  };
}

/**
 * opencode 2 (the `next` channel; its program is `opencode2`, or `opencode` reporting 2.x or a
 * 0.0.0-next build) keeps the same file and entry format but nests the servers under `mcp.servers`
 * and switches one off with `disabled` instead of `enabled` (anomalyco/opencode specs/v2/config.md,
 * "Group 9: Integrations"; issue 37532). opencode 1 reads each key of `mcp` as a server.
 */
function opencodeVersions(app: OpencodeLike, configPath: (env: ClientEnv, scope: Scope) => string): readonly ClientVersion[] | undefined {
  if (app.id !== 'opencode') return undefined;
  const second = (env: ClientEnv): boolean => {
    const version = programVersion(env, 'opencode');
    if (version !== undefined) return /^(2\.|0\.0\.0-next)/.test(version);
    return programOnPath(env, 'opencode2') !== undefined;
  };
  return [
    { label: 'opencode 2', configPath, serversPath: () => ['mcp', 'servers'], installed: second },
    { label: 'opencode 1', configPath, serversPath: () => ['mcp'], installed: (env) => !second(env) },
  ];
}

export function opencodeLike(app: OpencodeLike): ClientSpec {
  const dir = (env: ClientEnv): string => join(env, xdgConfigHome(env), app.folder);
  const configPath = (env: ClientEnv, scope: Scope): string =>
    scope === 'project'
      ? existingOr(env, resolveFor(env, env.projectDir), app.projectNames, app.projectDefault)
      : existingOr(env, dir(env), app.userNames, app.userNames[0]!);
  const versions = opencodeVersions(app, configPath);
  // With no opencode on the PATH, what the released opencode (1) reads.
  const serversPath = (scope: Scope, env: ClientEnv): string[] => (versions ? currentServersPath(versions, env, scope) : ['mcp']);
  return {
    id: app.id,
    label: app.label,
    format: 'jsonc',
    scopes: ['user', 'project'],
    configPath,
    ...(versions ? { versions } : {}),
    entryPath: (name, scope, env) => [...serversPath(scope, env), name],
    serversPath,
    variables: 'env-brace',
    // {env:VAR} is replaced everywhere, but our mcp-remote headers use ${NAME}, which it leaves alone.
    expandsInArgs: false,
    remoteInFile: true,
    // Whether it finds npx.cmd without a shell is not documented; `cmd /c npx` works either way.
    windowsCmdWrap: true,
    detectPath: dir,
    afterChangeNote: () => `Start a new ${app.label} session (it reads its config at start); \`${app.program} mcp list\` shows the server and whether it connects.`,
    shape: {
      stdioFields: { type: 'local' },
      commandArray: true,
      envField: 'environment',
      remote: { urlField: 'url', fields: { type: 'remote' } },
    },
    doctor: {
      // opencode 1 switches a server off with "enabled": false, opencode 2 with "disabled": true.
      disabledHint: (field) => (field === 'enabled' ? ` (or set "enabled": true)` : ''),
      // Checked with opencode 1.18.33: `"command": "npx"` or an `args` key makes the whole config invalid.
      entryRule: (name, entry, mode, reinstall) => {
        const wrong = ['args', 'env'].filter((key) => Object.hasOwn(entry, key));
        if (typeof entry.command === 'string') wrong.unshift('a string command');
        const type = mode === 'remote' ? 'remote' : 'local';
        if (entry.type !== type) wrong.unshift(`type ${JSON.stringify(entry.type ?? null)}`);
        if (wrong.length === 0) return undefined;
        return {
          message: `'${name}': ${app.label} refuses ${wrong.join(', ')} (it needs type "${type}"${type === 'local' ? ', one command array and environment' : ''}) and then reads no config at all`,
          fix: `rewrite the entry in ${app.label}'s shape, or reinstall: ${reinstall(mode === 'local' ? '' : ` --mode ${mode}`)}`,
        };
      },
    },
    addCommand: addCommand(app),
  };
}
