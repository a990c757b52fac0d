/**
 * After an install or an uninstall, the file is read back: a program that
 * rewrites its file without taking a lock (Claude Code with ~/.claude.json, an
 * editor) may have read it just before our rename and written its own copy just
 * after, dropping our entry (or bringing a removed one back) although svcctl
 * already said "done". So the file is read again after a short settle time and
 * once more a little later; when the entry is not as it should be, the change
 * is made again on the file as it is now (the other program's change kept), and
 * the reads start over. svcctl exits 0 only once the file has been seen to stay
 * right through both reads; a file that keeps undoing it is exit 7.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import { readSnapshot, type FileSnapshot } from '../../fs/safe-write.js';
import { openDocument, type FilePlan } from './install-plan.js';

/** The reads after a write, in ms after the previous one: 0.03 s, then 0.15 s more (0.18 s in all). */
export const READ_BACK_DELAYS_MS = [30, 150] as const;
/** How many times a lost entry is put back before giving up. */
export const PUT_BACK_ATTEMPTS = 5;

/**
 * Whether the file as read has the entry; undefined when it cannot be told (a file that does not
 * parse now: someone is mid-write). Only presence counts: a client may add its own fields to our
 * entry (Antigravity's `disabled`), which is not ours to undo.
 */
export function entryIn(plan: FilePlan, snapshot: FileSnapshot): boolean | undefined {
  if (!snapshot.exists) return false;
  const { target } = plan;
  try {
    return openDocument(target.format, snapshot.text, target.file, target.client).get(target.entryPath) !== undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the file back until the entry has stayed as wanted (there after an install, gone after an
 * uninstall) through every read; `redo` plans and writes the change again on the current content.
 * Throws exit 7 when it keeps being undone.
 */
export async function confirmEntryStays(ctx: Context, plan: () => FilePlan, name: string, redo: () => Promise<void>, want: 'present' | 'absent' = 'present'): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    let undone = false;
    for (const delay of READ_BACK_DELAYS_MS) {
      await sleep(delay);
      if (entryIn(plan(), await readSnapshot(plan().target.file)) !== (want === 'present')) {
        undone = true;
        break;
      }
    }
    if (!undone) return;
    const file = plan().target.file;
    if (attempt >= PUT_BACK_ATTEMPTS) {
      const now = want === 'present' ? 'without' : 'with';
      throw new CliError(ExitCode.UnsafeConfig, `another program keeps rewriting ${file} ${now} the '${name}' entry; it is ${want === 'present' ? 'not there' : 'still there'} now`, {
        hint: 'close the client (it rewrites this file while it runs), then run the command again',
      });
    }
    ctx.out.info(
      want === 'present'
        ? `${file} was rewritten by another program without the '${name}' entry: putting it back`
        : `${file} was rewritten by another program with the '${name}' entry again: removing it again`,
    );
    await redo();
  }
}
