// A project's links are its author's, not the user's: one leading out of the project is refused (docs/security.md).
import { promises as fs } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { configDir } from '../../config/config-dir.js';
import type { Context } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import { readSetting } from '../../config/settings.js';
import { spoolDirectory } from '../../events/spool.js';
import { fileReadReason } from '../../fs/reasons.js';
import type { ClientEnv, Scope } from '../types.js';

export interface WriteBounds {
  projectRoot?: string;
  ownFolders: string[];
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;
const isMissing = (error: unknown): boolean => codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR';

export function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

function xdgBase(ctx: Pick<Context, 'env' | 'homeDir'>, variable: string, fallback: string[]): string {
  const value = ctx.env[variable];
  return value && isAbsolute(value) ? value : join(ctx.homeDir, ...fallback);
}

/** The project a file is in: `projectDir` when it holds `file` and not the home folder (run from ~, every file of yours
 * is in the folder svcctl runs in). */
export function projectOf(file: string, projectDir: string, homeDir: string): string | undefined {
  const root = resolve(projectDir);
  return isInside(resolve(file), root) && !isInside(resolve(homeDir), root) ? root : undefined;
}

export function writeBoundsFor(
  ctx: Pick<Context, 'env' | 'homeDir' | 'cwd'>,
  clientEnv: ClientEnv,
  scope: Scope,
  file: string,
): WriteBounds {
  const spool = spoolDirectory(true, ctx.env, ctx.homeDir, readSetting(ctx.env, 'SPOOL_DIR')?.value, ctx.cwd);
  const ownFolders = [
    configDir(ctx),
    join(xdgBase(ctx, 'XDG_STATE_HOME', ['.local', 'state']), 'svcctl'),
    join(xdgBase(ctx, 'XDG_CACHE_HOME', ['.cache']), 'svcctl'),
    resolve(ctx.cwd, spool),
  ];
  const root = resolve(clientEnv.projectDir);
  if ((scope === 'project' || scope === 'local') && isInside(resolve(file), root))
    return { projectRoot: root, ownFolders };
  // A user-scope file the environment puts in the project (CODEX_HOME=$PWD/.codex from its .envrc) is the
  // project's: its links are its author's, and one to another tool's file (~/.cargo/config.toml) is refused.
  const userInProject = projectOf(file, clientEnv.projectDir, ctx.homeDir);
  return userInProject === undefined ? { ownFolders } : { projectRoot: userInProject, ownFolders };
}

export async function realLocation(path: string): Promise<string> {
  const rest: string[] = [];
  for (let current = resolve(path); ; ) {
    try {
      return join(await fs.realpath(current), ...rest);
    } catch (error) {
      const parent = dirname(current);
      if (parent === current || !isMissing(error)) return resolve(path);
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

export async function checkWriteTarget(file: string, bounds: WriteBounds): Promise<string> {
  const realFile = await realLocation(file);
  await refuseOwnFiles(file, realFile, bounds.ownFolders);
  if (bounds.projectRoot !== undefined) await refuseLinksOutOf(bounds.projectRoot, file);
  return realFile;
}

async function refuseLinksOutOf(root: string, file: string): Promise<void> {
  const realRoot = await fs.realpath(root).catch(() => resolve(root));
  let current = root;
  for (const part of relative(root, resolve(file)).split(sep).filter(Boolean)) {
    current = join(current, part);
    let info;
    try {
      info = await fs.lstat(current);
    } catch (error) {
      // Missing from here on: svcctl creates real folders and a real file.
      if (isMissing(error)) return;
      throw new CliError(ExitCode.UnsafeConfig, `cannot read ${current}: ${fileReadReason(error)}`);
    }
    if (!info.isSymbolicLink()) continue;
    const real = await fs.realpath(current).catch(() => undefined);
    if (real === undefined) {
      const points = await fs.readlink(current).catch(() => '?');
      throw new CliError(
        ExitCode.UnsafeConfig,
        `${current} is a symbolic link to ${points}, which does not exist; svcctl does not write a project's config through it`,
        {
          hint: `remove the link (rm ${current}) and run the command again`,
        },
      );
    }
    if (!isInside(real, realRoot)) {
      throw new CliError(
        ExitCode.UnsafeConfig,
        `${current} is a symbolic link to ${real}, outside the project ${root}; svcctl does not write a project's config outside the project`,
        {
          hint: `remove the link (rm ${current}), or point it inside the project; to change your own config, use --scope user`,
        },
      );
    }
  }
}

async function refuseOwnFiles(file: string, realFile: string, ownFolders: string[]): Promise<void> {
  for (const folder of ownFolders) {
    const realFolder = await realLocation(folder);
    const named = isInside(resolve(file), resolve(folder));
    if (!named && !isInside(realFile, realFolder)) continue;
    // Named inside it: a link there is the user's own way to their config folder, not what went wrong.
    if (named || realFile === resolve(file))
      throw ownFileError(
        `${file} is in svcctl's own folder ${folder}`,
        "name a client's config file (or leave out --config)",
      );
    const link = (await linkInto(file, realFolder)) ?? file;
    throw ownFileError(
      `${file} leads to ${realFile}, in svcctl's own folder ${folder}${link === file ? '' : ` (${link} is a symbolic link)`}`,
      `remove the link (rm '${link}') and run the command again`,
    );
  }
  // A hard link has no link to follow: compare the file itself with svcctl's own files.
  const info = await fs.stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.nlink < 2) return;
  for (const folder of ownFolders) {
    const names = await fs.readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const own = await fs.stat(join(folder, name)).catch(() => undefined);
      if (own !== undefined && own.dev === info.dev && own.ino === info.ino) {
        throw ownFileError(
          `${file} is svcctl's own ${join(folder, name)} (a hard link to it)`,
          `remove ${file} (rm ${file}; the other name keeps the file) and run the command again`,
        );
      }
    }
  }
}

/** The link on `file`'s path that leads into `realFolder`: the deepest that does, else the deepest link. */
async function linkInto(file: string, realFolder: string): Promise<string | undefined> {
  let deepest: string | undefined;
  let into: string | undefined;
  for (let prefix = resolve(file); dirname(prefix) !== prefix; prefix = dirname(prefix)) {
    if (!(await fs.lstat(prefix).catch(() => undefined))?.isSymbolicLink()) continue;
    deepest ??= prefix;
    if (isInside(await realLocation(prefix), realFolder)) {
      into = prefix;
      break;
    }
  }
  return into ?? deepest;
}

const ownFileError = (how: string, hint: string): CliError =>
  new CliError(ExitCode.UnsafeConfig, `${how}: mcp install and mcp uninstall never change svcctl's own files`, {
    hint,
  });
