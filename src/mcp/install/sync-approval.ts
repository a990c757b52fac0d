/**
 * Which declarations the user approved, each pinned to a digest of its content: `mcp sync` asks before a declaration
 * it has not seen, or one that changed since, writes anything (docs/teams.md, "Approval"). Kept in svcctl's state
 * folder like the record of written entries (0600, trusted only when it and its folder are the user's alone, never
 * written through a link), so a project cannot approve itself.
 */
import { join, resolve } from 'node:path';
import { stateDir } from '../../config/config-dir.js';
import type { Context } from '../../core/context.js';
import { readSnapshot, updateSafely } from '../../fs/safe-write.js';
import { ownStateFile, textSha256 } from './written-entries.js';

interface ApprovalRecord {
  version: 1;
  /**
   * The path a declaration was given as → the digest of the content last approved. Not its real path: the folder a
   * project-scope declaration writes into is the one of that path, so a project's link to a declaration approved
   * elsewhere must not carry that approval into the project.
   */
  approved: Record<string, string>;
}

/** Enough for every project of a person; the oldest approvals go first. */
const MAX_APPROVALS = 500;

export const syncApprovalsPath = (ctx: Pick<Context, 'env' | 'homeDir'>): string =>
  join(stateDir(ctx), 'sync-approvals.json');

export const declarationDigest = (text: string): string => textSha256(text);

function parse(text: string): ApprovalRecord {
  try {
    const value = JSON.parse(text) as Partial<ApprovalRecord>;
    const approved: Record<string, string> = {};
    if (value.approved !== null && typeof value.approved === 'object')
      for (const [file, digest] of Object.entries(value.approved))
        if (typeof digest === 'string') approved[file] = digest;
    return { version: 1, approved };
  } catch {
    // An unreadable record approves nothing: the user is asked again.
    return { version: 1, approved: {} };
  }
}

export async function isApproved(ctx: Context, file: string, text: string): Promise<boolean> {
  const path = syncApprovalsPath(ctx);
  if ((await ownStateFile(path, ctx.uid)) !== true) return false;
  const snapshot = await readSnapshot(path).catch(() => undefined);
  const record = parse(snapshot?.exists ? snapshot.text : '');
  return record.approved[resolve(file)] === declarationDigest(text);
}

/** Not recorded (a state folder that is not the user's alone), the next sync asks again: never the other way round. */
export async function recordApproval(ctx: Context, file: string, text: string): Promise<void> {
  const path = syncApprovalsPath(ctx);
  if ((await ownStateFile(path, ctx.uid)) === false) return;
  const key = resolve(file);
  await updateSafely(
    path,
    (snapshot) => {
      const { approved } = parse(snapshot.text);
      delete approved[key];
      const kept = Object.entries(approved).slice(-(MAX_APPROVALS - 1));
      const next = Object.fromEntries([...kept, [key, declarationDigest(text)]]);
      return `${JSON.stringify({ version: 1, approved: next }, null, 2)}\n`;
    },
    { mode: 0o600, privateFolder: true, backup: false },
  );
}
