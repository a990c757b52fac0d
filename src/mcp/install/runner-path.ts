// What an entry needs from the machine it is written on: where npx is for a GUI client, and the corporate CA file.
import { accessSync, constants, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_RUNNER } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { findProgram } from '../../fs/path-search.js';
import { fileReadReason } from '../../fs/reasons.js';
import { guiPathOf, onGuiPath, runnerPathValue } from '../clients/gui-path.js';
import { CLIENTS } from '../clients/table.js';
import { CA_VARIABLE } from '../render/values.js';
import type { EntryRequest, Mode, TokenHelper } from '../types.js';
import { type RunnerChoice, windowsRunnerFor } from './windows-runner.js';

type Where = Pick<Context, 'env' | 'platform' | 'cwd'>;

/** npx outside a GUI client's PATH: its path, its folder first on PATH (architecture.md "npx for GUI clients"). */
export async function runnerFor(
  ctx: Where,
  target: EntryRequest['target'],
  mode: Mode,
  tokenHelper: TokenHelper | undefined,
  argWords: string[],
): Promise<RunnerChoice> {
  // A token helper entry starts npx only when svcctl itself runs from npx's cache.
  const startsNpx = tokenHelper === undefined ? mode !== 'remote' : tokenHelper.svcctl.how === 'npx';
  if ('format' in target || !startsNpx) return {};
  if (ctx.platform === 'win32') return windowsRunnerFor(ctx, CLIENTS[target.client], argWords);
  const guiPath = guiPathOf(CLIENTS[target.client], ctx.platform);
  if (guiPath === undefined) return {};
  const found = await findProgram(PACKAGE_RUNNER, ctx.env, ctx.platform, ctx.cwd);
  if (found === undefined || onGuiPath(path.dirname(found), guiPath)) return {};
  const folder = await realpath(path.dirname(found)).catch(() => path.dirname(found));
  return { runner: { command: path.join(folder, path.basename(found)), path: runnerPathValue(folder, guiPath) } };
}

/** The CA file Node reads at start, for entries that start a process: npx, or svcctl's own proxy (token helper). A
 * remote entry with a headers command (Claude Code) runs svcctl in the client's shell, with its whole environment. */
export function caCertsFor(
  ctx: Pick<Context, 'env' | 'platform'>,
  target: EntryRequest['target'],
  mode: Mode,
  tokenHelper: boolean,
): string | undefined {
  if (mode === 'remote' && !tokenHelper) return undefined;
  if (mode === 'remote' && 'client' in target && CLIENTS[target.client].headersCommand !== undefined) return undefined;
  const value = ctx.env[CA_VARIABLE];
  return value === undefined || caFileProblem(value, ctx.platform) !== undefined ? undefined : value;
}

/** Why a NODE_EXTRA_CA_CERTS value is no CA file an entry can carry: a relative path would be read from whatever folder
 * the client starts in (a project's, planted), and a newline breaks the line of a TOML or YAML value. */
export function caFileProblem(value: string, platform: NodeJS.Platform): string | undefined {
  if (value === '') return 'it is empty';
  if (/[\r\n]/.test(value)) return 'it holds a line break';
  if (!(platform === 'win32' ? path.win32 : path.posix).isAbsolute(value)) return 'it is not an absolute path';
  try {
    if (!statSync(value).isFile()) return 'it is not a file';
    accessSync(value, constants.R_OK);
  } catch (error) {
    return `it cannot be read (${fileReadReason(error)})`;
  }
  return undefined;
}
