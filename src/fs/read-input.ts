import { resolve } from 'node:path';
import type { InputStream } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { readBounded, readFileOrPipe } from './file-or-pipe.js';
import { fileReadReason, isDescribedReadError } from './reasons.js';
import { MAX_FILE_BYTES, UnreadableFileError } from './regular-file.js';

/** One event's bytes at most (a FILE, `--payload-file`, stdin's one event, an NDJSON line). The service states no
 * limit (its docs, "Limits: not shown") and the sandbox takes 1 MiB by default (`--max-body`): the cap of every file
 * svcctl reads whole, far above both, is there so that `/dev/zero` or a pipe without end stops, not to judge events. */
export const MAX_EVENT_BYTES = MAX_FILE_BYTES;

/** stdin read whole, up to `maxBytes`: more is exit 2 and the rest is not read (`--password-stdin < /dev/zero`). */
export async function readStdin(stdin: InputStream, maxBytes: number, flag?: string): Promise<Buffer> {
  try {
    return await readBounded(stdin as AsyncIterable<Buffer>, maxBytes);
  } catch (error) {
    throw fileReadError('stdin', error, flag);
  }
}

export function describeInput(file: string): string {
  return file === '-' ? 'stdin' : file;
}

/** One event's input: FILE (a regular file or a pipe) or `-`, stdin; over MAX_EVENT_BYTES is exit 2, unread. */
export async function readInputBytes(file: string, stdin: InputStream, cwd: string, flag?: string): Promise<Buffer> {
  if (file === '-') return readStdin(stdin, MAX_EVENT_BYTES, flag);
  try {
    return await readFileOrPipe(resolve(cwd, file), MAX_EVENT_BYTES);
  } catch (error) {
    throw fileReadError(file, error, flag);
  }
}

export { fileReadReason };

export function fileReadError(file: string, error: unknown, flag?: string): Error {
  const reason = fileReadReason(error);
  const prefix = flag ? `${flag}: ` : '';
  if (error instanceof UnreadableFileError)
    return usageError(
      `${prefix}${file} ${error.message}`,
      error.tooLarge ? undefined : 'give a regular file or a pipe',
    );
  if ((error as NodeJS.ErrnoException).code === 'EISDIR') return usageError(`${prefix}${file} ${reason}`);
  if (!isDescribedReadError(error)) return usageError(`${prefix}${file}: it cannot be read (${reason})`);
  return usageError(`${prefix}${reason}: ${file}`);
}

// Without FILE, stdin is read only when it is not a terminal: svcctl never hangs waiting for typing.
export function inputOrStdin(file: string | undefined, stdin: InputStream, usage: string): string {
  if (file !== undefined) return file;
  if (stdin.isTTY) throw usageError(`no input: give FILE, or '-' and pipe the data in`, usage);
  return '-';
}
