// Claude Code (~/.claude.json) and editors rewrite their file without a lock and may drop an entry written just before:
// so the file is read back twice and the change made again until it stays (exit 7 when it keeps being undone).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import { foreign } from '../../core/output.js';
import { readSnapshot, type FileSnapshot } from '../../fs/safe-write.js';
import { openDocument, type FilePlan } from './install-plan.js';

export const READ_BACK_DELAYS_MS = [30, 150] as const;
export const PUT_BACK_ATTEMPTS = 5;

/** Only presence counts: a client may add its own fields (Antigravity's `disabled`); undefined: mid-write. */
export function entryIn(plan: FilePlan, snapshot: FileSnapshot): boolean | undefined {
  if (!snapshot.exists) return false;
  const { target } = plan;
  try {
    return openDocument(target.format, snapshot.text, target.file, target.client).get(target.entryPath) !== undefined;
  } catch {
    return undefined;
  }
}

export async function confirmEntryStays(
  ctx: Context,
  plan: () => FilePlan,
  name: string,
  redo: () => Promise<void>,
  want: 'present' | 'absent' = 'present',
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    let undone = false;
    for (const delay of READ_BACK_DELAYS_MS) {
      await (ctx.pause ?? sleep)(delay);
      if (entryIn(plan(), await readSnapshot(plan().target.file)) !== (want === 'present')) {
        undone = true;
        break;
      }
    }
    if (!undone) return;
    const file = foreign(plan().target.file);
    const shownName = foreign(name);
    if (attempt >= PUT_BACK_ATTEMPTS) {
      const now = want === 'present' ? 'without' : 'with';
      throw new CliError(
        ExitCode.UnsafeConfig,
        `another program keeps rewriting ${file} ${now} the '${shownName}' entry; it is ${want === 'present' ? 'not there' : 'still there'} now`,
        {
          hint: 'close the client (it rewrites this file while it runs), then run the command again',
        },
      );
    }
    ctx.out.info(
      want === 'present'
        ? `${file} was rewritten by another program without the '${shownName}' entry: putting it back`
        : `${file} was rewritten by another program with the '${shownName}' entry again: removing it again`,
    );
    await redo();
  }
}
