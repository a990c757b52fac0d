// Whoever can write into the spool has files sent with the user's token, so ownership is checked as ssh does.
// Node has no openat(): each folder's (device, inode) is pinned at first check and compared by lstat before renames.
// Links above the spool folder are the user's own choice (/var → /private/var on macOS) and are followed.
import { constants, promises as fs, type Stats } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../core/errors.js';
import { fileTrustProblem, folderTrustProblem, type FolderProblem } from '../fs/owner-mode.js';
import { ensureFolder } from '../fs/private-dir.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

function folderProblem(
  info: Stats,
  path: string,
  uid: number | undefined,
): { problem: string; hint: string } | undefined {
  const found = folderTrustProblem(info, uid);
  if (found === undefined) return undefined;
  const hints: Record<FolderProblem['kind'], string> = {
    link: `remove the link (rm '${path}'); svcctl creates the folder, mode 0700, when it next spools an event`,
    'not-folder': `move it away (svcctl creates the folder), or use another: --spool DIR or SERVICE_SPOOL_DIR`,
    owner: `if it is yours to use, chown ${uid} '${path}'; else use a folder of your own: --spool DIR or SERVICE_SPOOL_DIR`,
    mode: `chmod 700 '${path}'`,
  };
  return { problem: found.problem, hint: hints[found.kind] };
}

export function spoolRefused(what: string, hint: string): CliError {
  return new CliError(
    ExitCode.UnsafeConfig,
    `${what}; svcctl uses only a spool that is yours alone, so it stopped and left the spool as it was`,
    { hint },
  );
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

export class SpoolFolder {
  private readonly seen = new Map<string, { dev: number; ino: number }>();

  /** `parent`: the folder holding this one, checked with it (a spool's folder per base URL). */
  constructor(
    readonly dir: string,
    readonly uid: number | undefined,
    readonly parent?: SpoolFolder,
  ) {}

  path(sub?: string): string {
    return sub === undefined ? this.dir : join(this.dir, sub);
  }

  async check(sub?: string): Promise<boolean> {
    if (sub === undefined && this.parent && !(await this.parent.check())) return false;
    const path = this.path(sub);
    let info: Stats;
    try {
      info = await fs.lstat(path);
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw error;
      if (this.seen.has(path))
        throw spoolRefused(`the spool folder ${path} disappeared while svcctl was using it`, 'run the command again');
      return false;
    }
    const found = folderProblem(info, path, this.uid);
    if (found)
      throw spoolRefused(`the spool folder ${path} ${found.problem}${await linkTarget(path, info)}`, found.hint);
    const before = this.seen.get(path);
    if (before && (before.dev !== info.dev || before.ino !== info.ino)) {
      throw spoolRefused(
        `the spool folder ${path} was replaced while svcctl was using it`,
        'find out who changed it; run the command again',
      );
    }
    this.seen.set(path, { dev: info.dev, ino: info.ino });
    return true;
  }

  async ensure(sub?: string): Promise<void> {
    if (await this.check(sub)) return;
    if (sub === undefined && this.parent) await this.parent.ensure();
    if (sub === undefined && !this.parent) await ensureFolder(this.dir, { private: true });
    else {
      const made = await fs.mkdir(this.path(sub), { mode: 0o700 }).then(
        () => true,
        (error: unknown) => (errno(error) === 'EEXIST' ? false : Promise.reject(error)),
      );
      // chmod follows a link: only a folder made just now is chmod-ed, and the check below refuses a link.
      if (made) await fs.chmod(this.path(sub), 0o700);
    }
    await this.check(sub);
  }

  async checkFiles(paths: string[]): Promise<Map<string, Stats>> {
    const infos = new Map<string, Stats>();
    const problems: string[] = [];
    for (const path of paths) {
      const info = await fs
        .lstat(path)
        .catch((error: unknown) => (errno(error) === 'ENOENT' ? undefined : Promise.reject(error)));
      if (info === undefined) continue; // taken by another flusher
      const problem = fileTrustProblem(info, this.uid);
      if (problem === undefined) infos.set(path, info);
      else problems.push(`${path} ${problem}${await linkTarget(path, info)}`);
    }
    if (problems.length > 0) {
      const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
      throw spoolRefused(`in the spool, ${problems.slice(0, 3).join('; ')}${more}`, fileHint(this.uid));
    }
    return infos;
  }

  async read(path: string, shownAs: string, listed: Stats | undefined): Promise<Buffer> {
    let handle;
    try {
      handle = await fs.open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    } catch (error) {
      const code = errno(error);
      if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE')
        throw spoolRefused(`in the spool, ${shownAs} is a symbolic link`, fileHint(this.uid));
      throw error;
    }
    try {
      const info = await handle.stat();
      const problem =
        fileTrustProblem(info, this.uid) ??
        (listed && (listed.dev !== info.dev || listed.ino !== info.ino)
          ? 'was replaced after svcctl listed it'
          : undefined);
      if (problem !== undefined) throw spoolRefused(`in the spool, ${shownAs} ${problem}`, fileHint(this.uid));
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }
}

const fileHint = (uid: number | undefined): string =>
  `remove what svcctl did not write there${uid === undefined ? '' : `, or chown ${uid} the files that are yours`}; svcctl writes only regular files (DIR/<id>.json)`;

async function linkTarget(path: string, info: Stats): Promise<string> {
  if (!info.isSymbolicLink()) return '';
  const target = await fs.readlink(path).catch(() => undefined);
  return target === undefined ? '' : ` (to ${target})`;
}
