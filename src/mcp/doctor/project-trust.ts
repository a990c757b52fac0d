// As Claude Code and VS Code ask before they start a project's server (docs/security.md, "Project entries are not
// run unasked"). Only names of variables are shown, never a value; entries in the user's own config file are theirs,
// and an entry elsewhere is svcctl's only when svcctl's record says it wrote it there (install/written-entries.ts).
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { canPrompt, type Context } from '../../core/context.js';
import { CLI_NAME } from '../../core/constants.js';
import { foreign } from '../../core/output.js';
import type { Redactor } from '../../redaction/redaction.js';
import { maskArgs, maskText, maskUrl } from '../../redaction/mask-entry.js';
import { commandLine } from '../service-entries.js';
import { allClients, CLIENTS } from '../clients/table.js';
import type { ClientEnv, ClientId, ClientSpec } from '../types.js';
import type { EntryPlan } from './entry-plan.js';
import type { LocatedEntry } from './locate-entry.js';
import { isOwnEntry, type OwnEntryContext } from './own-entry.js';
import { svcctlWrote } from '../install/written-entries.js';
import { projectOf } from '../install/write-bounds.js';
import { fail, type CheckResult } from './types.js';
import { optionalBaseUrl, optionalMcpUrl } from '../../config/base-url.js';

export interface TrustOptions {
  trustProject?: boolean;
  projectDir: string;
  clientEnv: ClientEnv;
  own: OwnEntryContext;
}

const isInside = (dir: string, file: string): boolean => {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Where `mcp install --scope user` writes for this HOME and environment, with the places other versions read. */
function userConfigPaths(client: ClientSpec, env: ClientEnv): string[] {
  if (!client.scopes.includes('user')) return [];
  const versions = client.versions ?? [];
  return [client.configPath(env, 'user'), ...versions.map((version) => version.configPath(env, 'user'))];
}

const realOrNone = (file: string): Promise<string | undefined> => realpath(file).catch(() => undefined);

/**
 * Whose an entry is follows from where its file is, never from the scope it was read as: `--config` can give a
 * cloned project's file any scope. A link at the user-scope path counts (a dotfiles folder) unless it leads into the project: the user-scope file
 * must not be the project's own. A file of no known client (`--config` without `--client`) counts when it is any
 * client's user-scope file.
 */
async function isUserConfigFile(file: string, client: ClientId | null, env: ClientEnv): Promise<boolean> {
  const real = await realOrNone(file);
  if (real === undefined) return false;
  const project = (await realOrNone(env.projectDir)) ?? path.resolve(env.projectDir);
  const clients = client === null ? allClients() : [CLIENTS[client]];
  for (const place of new Set(clients.flatMap((spec) => userConfigPaths(spec, env)))) {
    const info = await lstat(place).catch(() => undefined);
    if (info === undefined || (info.isSymbolicLink() && isInside(project, real))) continue;
    // A user-scope path the environment puts in the project (CODEX_HOME=$PWD/.codex) names the project's file.
    if (projectOf(place, env.projectDir, env.homeDir) !== undefined) continue;
    if ((await realOrNone(place)) === real) return true;
  }
  return false;
}

async function whoseFile(projectDir: string, file: string): Promise<string> {
  const real = await realpath(file).catch(() => file);
  if (real !== path.resolve(file)) return `is read through a link to ${foreign(real)}`;
  return isInside(projectDir, file) ? 'comes with the project' : 'is not in your user-scope config';
}

const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** Far above any command svcctl writes; of a longer one the start, what runs first, is what stays on the screen. */
const SHOWN_COMMAND_CHARS = 200;

/** Redacted before it is escaped and cut: a secret is recognised whole, as it was written. */
function actions(located: LocatedEntry, plan: EntryPlan, redact: (text: string) => string): string[] {
  const entry = located.value as Record<string, unknown>;
  const shown = (text: string): string => foreign(redact(text), SHOWN_COMMAND_CHARS);
  const names = (list: string[]): string => list.map((name) => foreign(redact(name))).join(', ');
  const done: string[] = [];
  if (plan.mode !== 'remote' && (plan.mode === 'local' || plan.svcctl)) {
    const line = maskArgs(commandLine(entry) ?? [])
      .map(shellWord)
      .join(' ');
    const given = [...new Set([...Object.keys(plan.command.env), ...plan.command.forwarded])].sort();
    done.push(
      `start \`${shown(line)}\` with PATH, HOME and the other basic variables${given.length > 0 ? ` and ${names(given)}` : ''}`,
    );
  }
  if (plan.mode === 'remote' && plan.http.headersCommand !== undefined) {
    const field = plan.http.headersCommand.spec.field;
    const added = Object.keys(plan.http.headersCommand.spec.env);
    done.push(
      `run its ${field} \`${shown(maskText(String(entry[field])))}\` through a shell with your whole environment${added.length > 0 ? ` and ${added.join(', ')}` : ''}`,
    );
  }
  const http = plan.mode === 'local' || (plan.mode === 'proxy' && plan.svcctl) ? undefined : plan.http;
  if (http !== undefined) {
    const headers = Object.keys(http.headers);
    done.push(`connect to ${shown(maskUrl(http.url))}${headers.length > 0 ? ` sending ${names(headers)}` : ''}`);
  }
  return done;
}

/**
 * 'unasked': the user's own or svcctl's, run without a question and started outside the project (runner-folder.ts);
 * 'allowed': the user said yes or passed --trust-project, started in the project as the client would; else the
 * failing check that says what was not run.
 */
export type Trust = 'unasked' | 'allowed' | CheckResult;

export async function projectTrust(
  ctx: Context,
  located: LocatedEntry,
  plan: EntryPlan,
  client: ClientSpec | null,
  redactor: Redactor,
  options: TrustOptions,
): Promise<Trust> {
  if (await isUserConfigFile(located.file, located.client, options.clientEnv)) return 'unasked';
  // Content never decides: a project can copy svcctl's entry word for word (and set the registry npx reads).
  if (await svcctlWrote(ctx, located)) return 'unasked';
  if (options.trustProject === true) return 'allowed';
  const what = actions(located, plan, (text) => ctx.secrets.redact(redactor.redact(text)));
  if (what.length === 0) return 'allowed';
  const list = what.join('; and ');
  const whose = await whoseFile(options.projectDir, located.file);
  const copy = isOwnEntry(located.value, client, options.own)
    ? ` (it looks like the entry ${CLI_NAME} writes, but ${CLI_NAME}'s record has no such write into this file as it is now: a copy, or the file changed since)`
    : '';
  const again = copy
    ? `; an entry you installed becomes ${CLI_NAME}'s again when ${CLI_NAME} writes it: ${CLI_NAME} mcp uninstall, then ${CLI_NAME} mcp install`
    : '';
  if (canPrompt(ctx)) {
    const { promptConfirm } = await import('../../core/prompts.js');
    ctx.out.warn(
      `'${foreign(located.name)}' in ${foreign(located.file)} ${whose} and is not an entry ${CLI_NAME} wrote${copy}. To check it, doctor would ${list}.`,
    );
    if (await promptConfirm(ctx, `Run it? (only if you trust this project)`)) return 'allowed';
    return fail(
      'trust',
      `not run: you did not allow doctor to ${list}`,
      `review ${located.file}, then run doctor again and answer yes, or pass --trust-project${again}`,
    );
  }
  return fail(
    'trust',
    `not run: '${located.name}' ${whose} (${located.file}) and ${CLI_NAME} did not write it${copy}; doctor would ${list}`,
    `review the entry; if you trust this project, run again with --trust-project, or on a terminal to be asked${again}`,
  );
}

export async function trustOptionsFor(
  ctx: Context,
  projectDir: string,
  trustProject: boolean | undefined,
  serverPackage?: string,
): Promise<TrustOptions> {
  const [{ svcctlCommand }, { packageSpec }] = await Promise.all([
    import('../install/svcctl-command.js'),
    import('../render/values.js'),
  ]);
  const packages = serverPackage === undefined ? [] : [serverPackage, packageSpec(serverPackage)];
  const own: OwnEntryContext = {
    baseUrl: optionalBaseUrl(ctx),
    mcpUrl: optionalMcpUrl(ctx),
    svcctlArgv: (await svcctlCommand(ctx)).argv,
    packages,
  };
  const clientEnv: ClientEnv = { homeDir: ctx.homeDir, env: ctx.env, platform: ctx.platform, projectDir };
  return { trustProject, projectDir, clientEnv, own };
}
