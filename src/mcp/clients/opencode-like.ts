// opencode and Kilo Code's CLI (a fork that reads the same shape). Facts and sources: docs/clients-agents.md.
import { usageError } from '../../core/errors.js';
import type {
  ClientAddCommand,
  ClientEnv,
  ClientSpec,
  ClientVersion,
  EntryRequest,
  RenderedEntry,
  Scope,
} from '../types.js';
import { join, probe, resolveFor, xdgConfigHome } from './paths.js';
import { programOnPath, programVersion } from './program-version.js';
import { currentServersPath } from './versions.js';
import { commandLine, shellFor, type Arg } from '../render/shell-quote.js';

function existingOr(env: ClientEnv, dir: string, names: readonly string[], fallback: string): string {
  const fs = probe(env);
  const found = names.find((name) => fs.exists(join(env, dir, name)));
  return join(env, dir, found ?? fallback);
}

interface OpencodeLike {
  id: 'opencode' | 'kilo';
  label: string;
  program: string;
  folder: string;
  userNames: readonly string[];
  projectNames: readonly string[];
  projectDefault: string;
}

function addCommand(app: OpencodeLike) {
  return (request: EntryRequest, rendered: RenderedEntry): ClientAddCommand => {
    if (request.scope !== 'user') {
      throw usageError(
        `\`${app.program} mcp add\` writes the user config`,
        `use svcctl mcp install --client ${app.id} --scope ${request.scope}`,
      );
    }
    const entry = rendered.value;
    const pairs = (value: unknown): string[] =>
      Object.entries((value ?? {}) as Record<string, string>).map(([key, item]) => `${key}=${item}`);
    const argv: Arg[] = [app.program, 'mcp', 'add', request.name];
    if (entry.type === 'remote') {
      argv.push('--url', String(entry.url));
      for (const header of pairs(entry.headers)) argv.push('--header', header);
    } else {
      for (const variable of pairs(entry.environment)) argv.push('--env', variable);
      argv.push('--', ...(entry.command as string[]));
    }
    return { command: commandLine(argv, shellFor(request)), links: [], notes: [] };
  };
}

/** 1.18.25 to 1.18.33 read `mcp.servers` too; 1.18.23 and older refuse the file with it (docs/clients-agents.md). */
export const OPENCODE_READS_BOTH = [1, 18, 25] as const;

const numbers = (version: string): number[] => version.split(/[.-]/).slice(0, 3).map(Number);
const atLeast = (version: string, floor: readonly number[]): boolean => {
  const parts = numbers(version);
  for (let index = 0; index < floor.length; index += 1)
    if ((parts[index] ?? 0) !== floor[index]) return (parts[index] ?? 0) > floor[index]!;
  return true;
};

function opencodeVersions(
  app: OpencodeLike,
  configPath: (env: ClientEnv, scope: Scope) => string,
): readonly ClientVersion[] | undefined {
  if (app.id !== 'opencode') return undefined;
  const first = (env: ClientEnv): string | undefined => {
    const version = programVersion(env, 'opencode');
    return version !== undefined && !/^(2\.|0\.0\.0-next)/.test(version) ? version : undefined;
  };
  const second = (env: ClientEnv): boolean => {
    const version = programVersion(env, 'opencode');
    return (version !== undefined && first(env) === undefined) || programOnPath(env, 'opencode2') !== undefined;
  };
  const readsBoth = (env: ClientEnv): boolean => {
    const version = first(env);
    return version !== undefined && atLeast(version, OPENCODE_READS_BOTH);
  };
  const nested = (): string[] => ['mcp', 'servers'];
  const flat = (): string[] => ['mcp'];
  return [
    { label: 'opencode 2', configPath, serversPath: nested, installed: second },
    {
      label: 'opencode 1',
      configPath,
      serversPath: flat,
      // Only a version that answered: with no opencode found, nothing is known to refuse it.
      refuses: (_scope, env) => (first(env) !== undefined ? [nested()] : []),
      upgradeNote: 'opencode 1.18.25 and later read both: upgrade it and run the install again',
      // Also with no opencode at all: the released version is 1.
      installed: (env) => !readsBoth(env) && (first(env) !== undefined || !second(env)),
    },
    // After "opencode 1", so that a place both read is named by the older, wider label.
    {
      label: 'opencode 1.18.25 or later',
      configPath,
      serversPath: flat,
      alsoReads: () => [nested()],
      installed: readsBoth,
    },
  ];
}

export function opencodeLike(app: OpencodeLike): ClientSpec {
  const dir = (env: ClientEnv): string => join(env, xdgConfigHome(env), app.folder);
  const configPath = (env: ClientEnv, scope: Scope): string =>
    scope === 'project'
      ? existingOr(env, resolveFor(env, env.projectDir), app.projectNames, app.projectDefault)
      : existingOr(env, dir(env), app.userNames, app.userNames[0]!);
  const versions = opencodeVersions(app, configPath);
  const serversPath = (scope: Scope, env: ClientEnv): string[] =>
    versions ? currentServersPath(versions, env, scope) : ['mcp'];
  return {
    id: app.id,
    label: app.label,
    format: 'jsonc',
    // opencode 1.18.33 adds this key to a user config without it (docs/clients-agents.md): written first, it has nothing to add.
    ...(app.id === 'opencode' ? { newFileFields: { $schema: 'https://opencode.ai/config.json' } } : {}),
    scopes: ['user', 'project'],
    configPath,
    ...(versions ? { versions } : {}),
    entryPath: (name, scope, env) => [...serversPath(scope, env), name],
    serversPath,
    passesEnvironment: app.id === 'opencode',
    variables: 'env-brace',
    // {env:VAR} is replaced everywhere, but our mcp-remote headers use ${NAME}, which it leaves alone.
    expandsInArgs: false,
    remoteInFile: true,
    windowsCmdWrap: true,
    detectPath: dir,
    afterChangeNote: () =>
      `Start a new ${app.label} session (it reads its config at start); \`${app.program} mcp list\` shows the server and whether it connects.`,
    shape: {
      stdioFields: { type: 'local' },
      commandArray: true,
      envField: 'environment',
      remote: { urlField: 'url', fields: { type: 'remote' } },
    },
    doctor: {
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
