// One rule, as ssh's StrictModes, for the files whose content decides what svcctl sends with the user's secrets
// (the spool, config.toml, credentials.json, appended logs): only their owner may have chosen that content.
// uid undefined (Windows, where permissions are not mode bits): owner and mode are not checked.
import type { Stats } from 'node:fs';

export const modeText = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, '0');

export function ownerProblem(owner: number, uid: number | undefined): string | undefined {
  if (uid === undefined || owner === uid) return undefined;
  return `belongs to another user (uid ${owner}; you are uid ${uid})`;
}

/** Group or others may write it: they may then replace what is in it. */
export function othersWriteProblem(mode: number, uid: number | undefined): string | undefined {
  if (uid === undefined || (mode & 0o022) === 0) return undefined;
  return `can be written by other users (mode ${modeText(mode)})`;
}

export interface FolderProblem {
  kind: 'link' | 'not-folder' | 'owner' | 'mode';
  problem: string;
}

/** `info` from lstat: a link is refused; from stat: the folder it leads to is judged. */
export function folderTrustProblem(info: Stats, uid: number | undefined): FolderProblem | undefined {
  if (info.isSymbolicLink()) return { kind: 'link', problem: 'is a symbolic link' };
  if (!info.isDirectory()) return { kind: 'not-folder', problem: 'is not a folder' };
  const owner = ownerProblem(info.uid, uid);
  if (owner !== undefined) return { kind: 'owner', problem: owner };
  const mode = othersWriteProblem(info.mode, uid);
  return mode === undefined ? undefined : { kind: 'mode', problem: mode };
}

/** A file inside a folder that passed folderTrustProblem: it must be a regular file of the user's. */
export function fileTrustProblem(info: Stats, uid: number | undefined): string | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link';
  if (!info.isFile()) return 'is not a regular file';
  return ownerProblem(info.uid, uid);
}
