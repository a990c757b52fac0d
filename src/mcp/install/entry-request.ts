import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_SERVER_NAME, MCP_SERVER_PACKAGE } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { usageError } from '../../core/errors.js';
import { gitRootsOf } from '../../fs/git-root.js';
import { fileReadReason } from '../../fs/reasons.js';
import { resolveBaseUrl, resolveMcpUrl } from '../../config/base-url.js';
import { plainHttpAllowed } from '../../config/plain-http.js';
import { checkScope, getClient } from '../clients/table.js';
import { placeholderLiterals, resolveLiterals, type LiteralFlags } from './literal-values.js';
import { checkMode, checkSecrets, defaultSecrets, type Target } from '../clients/render-entry.js';
import type {
  AuthMethod,
  ClientEnv,
  EntryRequest,
  GenericFormat,
  Mode,
  PasteShell,
  Scope,
  SecretsHow,
  TokenHow,
} from '../types.js';
import { chooseTokenHelper } from './token-choice.js';
import { caCertsFor, runnerFor } from './runner-path.js';

export interface McpEntryOptions extends LiteralFlags {
  client?: string[];
  mode?: Mode;
  auth?: AuthMethod;
  name?: string;
  scope?: Scope;
  projectDir?: string;
  config?: string;
  format?: GenericFormat;
  package?: string;
  secrets?: SecretsHow;
  token?: TokenHow;
  showSecrets?: boolean;
  shell?: PasteShell;
}

export function targetsOf(options: McpEntryOptions): Target[] {
  const clients = options.client ?? [];
  if (options.format !== undefined) {
    if (clients.length > 0) throw usageError('--format is for --config without --client: a client has its own format');
    return [{ format: options.format }];
  }
  return [...new Set(clients)].map((id) => ({ client: getClient(id).id }));
}

/** --format says how to write a file that belongs to no client, so it needs --config and no --client. */
export function explicitTargets(options: McpEntryOptions): Target[] {
  if (options.format !== undefined && options.config === undefined) {
    throw usageError('--format needs --config <path>: it gives the shape of a file that belongs to no known client');
  }
  const targets = targetsOf(options);
  if (options.config !== undefined && targets.length > 1)
    throw usageError('--config names one file: give one --client with it');
  return targets;
}

export interface ProjectFolder {
  dir: string;
  /** Claude Code's local-scope key. */
  keyDir: string;
  /** How dir was chosen, for the line that names it. */
  why: 'flag' | 'git' | 'cwd';
}

/** The folder the clients take for the project when svcctl runs in `cwd`: the root of its git work tree (where Claude
 * Code finds `.mcp.json` and editors open the workspace), else `cwd`; Claude Code keys its local scope by the main work
 * tree of a linked one. --project-dir names both. */
export function projectFolderOf(ctx: Context, options: McpEntryOptions): ProjectFolder {
  if (options.projectDir !== undefined) {
    const dir = projectDirOf(ctx, options);
    return { dir, keyDir: dir, why: 'flag' };
  }
  const roots = gitRootsOf(ctx.cwd);
  if (roots === undefined) return { dir: resolve(ctx.cwd), keyDir: resolve(ctx.cwd), why: 'cwd' };
  return { dir: roots.workTree, keyDir: roots.canonical, why: 'git' };
}

export function describeProjectFolder(folder: ProjectFolder): string {
  const why = {
    flag: '--project-dir',
    git: 'the root of the git work tree of the current folder; --project-dir chooses another',
    cwd: 'the current folder, in no git work tree; --project-dir chooses another',
  }[folder.why];
  const key = folder.keyDir === folder.dir ? '' : `; Claude Code's local scope: ${folder.keyDir} (the main work tree)`;
  return `project folder: ${folder.dir} (${why})${key}`;
}

export function projectDirOf(ctx: Context, options: McpEntryOptions): string {
  if (options.projectDir === undefined) return projectFolderOf(ctx, options).dir;
  const dir = resolve(ctx.cwd, options.projectDir);
  let what: string | undefined;
  try {
    if (!statSync(dir).isDirectory()) what = 'is a file, not a folder';
  } catch (error) {
    what =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'does not exist'
        : `cannot be read (${fileReadReason(error)})`;
  }
  if (what !== undefined)
    throw usageError(
      `--project-dir '${options.projectDir}' ${what}`,
      'give the folder of the project (its root, where .git is)',
    );
  return dir;
}

export function clientEnvOf(ctx: Context, options: McpEntryOptions): ClientEnv {
  const { dir, keyDir } = projectFolderOf(ctx, options);
  return { homeDir: ctx.homeDir, env: ctx.env, platform: ctx.platform, projectDir: dir, projectKeyDir: keyDir };
}

export function scopeFor(target: Target, options: McpEntryOptions): Scope {
  if ('format' in target) return options.scope ?? 'user';
  const client = getClient(target.client);
  const scope = options.scope ?? client.scopes[0] ?? 'user';
  checkScope(client, scope);
  return scope;
}

export interface BuildOptions {
  /** 'placeholders': <SERVICE_PASSWORD> for printing. */
  literals: 'values' | 'placeholders';
  /** Resolved for an earlier target of the same run, so warnings are given once. */
  urls?: EntryUrls;
}

export interface EntryUrls {
  baseUrl: string;
  mcpUrl: string;
}

export function entryUrls(ctx: Context, mode: Mode): EntryUrls {
  return mode === 'local' ? { baseUrl: resolveBaseUrl(ctx), mcpUrl: '' } : { baseUrl: '', mcpUrl: resolveMcpUrl(ctx) };
}

/** A credential flag the entry does not use would be silently ignored: say why and what to do. */
function checkUnreadCredentialFlags(options: McpEntryOptions, why: string | undefined): void {
  if (why === undefined) return;
  const given = (['tokenFile', 'passwordFile', 'passwordStdin'] as const).filter(
    (key) => options[key] !== undefined && options[key] !== false,
  );
  if (given.length === 0) return;
  const flag = { tokenFile: '--token-file', passwordFile: '--password-file', passwordStdin: '--password-stdin' }[
    given[0]!
  ];
  const variable = given[0] === 'tokenFile' ? 'SERVICE_ACCESS_TOKEN' : 'SERVICE_PASSWORD';
  throw usageError(
    `${flag} is not read with ${why}: the entry holds no literal value (${why === '--token helper' ? 'svcctl logs in again by itself' : `it reads ${variable} from the client's environment`})`,
    why === '--token helper'
      ? `leave out ${flag}`
      : `add --secrets literal to write the value into the file, or export ${variable} where the client starts and leave out ${flag}`,
  );
}

/** URLs are resolved only when the mode uses them, so a missing one is an error only when needed. */
export async function buildEntryRequest(
  ctx: Context,
  target: Target,
  options: McpEntryOptions,
  build: BuildOptions,
): Promise<EntryRequest> {
  const mode = options.mode ?? 'local';
  const auth = options.auth ?? 'password';
  if (mode === 'local' && auth === 'bearer') {
    throw usageError(
      '--auth bearer is for --mode remote or --mode proxy: the local server logs in with email and password',
    );
  }
  // --name is checked against NAME_PATTERN when the flag is parsed (src/cli/mcp-commands.ts).
  const name = options.name ?? DEFAULT_SERVER_NAME;
  const secrets = options.secrets ?? defaultSecrets(target);
  checkSecrets(target, secrets);
  const { baseUrl, mcpUrl } = build.urls ?? entryUrls(ctx, mode);
  const scope = scopeFor(target, options);
  const tokenHelper = await chooseTokenHelper(ctx, target, { mode, auth, token: options.token, scope });
  checkMode(target, mode, tokenHelper !== undefined);
  checkUnreadCredentialFlags(
    options,
    secrets !== 'literal' ? `--secrets ${secrets}` : tokenHelper !== undefined ? '--token helper' : undefined,
  );
  const literals =
    secrets !== 'literal' || tokenHelper !== undefined
      ? {}
      : build.literals === 'values'
        ? await resolveLiterals(ctx, mode, auth, options)
        : placeholderLiterals(ctx, mode, auth, options);
  // A project file is committed and read by every member: nothing in it may depend on this machine or this user.
  const portable = scope === 'project';
  const packageSpec = options.package ?? MCP_SERVER_PACKAGE;
  const runner = portable ? {} : await runnerFor(ctx, target, mode, tokenHelper, [packageSpec, baseUrl, mcpUrl]);
  const caCerts = portable ? undefined : caCertsFor(ctx, target, mode, tokenHelper !== undefined);
  return {
    target,
    mode,
    auth,
    name,
    scope,
    baseUrl: tokenHelper !== undefined ? resolveBaseUrl(ctx) : baseUrl,
    mcpUrl,
    package: packageSpec,
    secrets,
    literals,
    platform: ctx.platform,
    ...(options.shell !== undefined ? { shell: options.shell } : {}),
    ...(tokenHelper !== undefined ? { tokenHelper } : {}),
    ...(tokenHelper !== undefined && plainHttpAllowed(ctx) ? { allowHttp: true as const } : {}),
    ...runner,
    ...(caCerts !== undefined ? { caCerts } : {}),
  };
}
