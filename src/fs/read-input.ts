/** Reading input bytes exactly as they are: from a file, or from stdin for '-'. */
// node:fs's `promises` is read on first use: loading node:fs/promises costs ~2 ms of every start-up (BENCHMARKS.md).
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import type { InputStream } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { fileReadReason, isDescribedReadError } from './reasons.js';

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export function describeInput(file: string): string {
  return file === '-' ? 'stdin' : file;
}

/** The bytes of FILE (relative to `cwd`), or of stdin for '-'. */
export async function readInputBytes(file: string, stdin: InputStream, cwd: string): Promise<Buffer> {
  if (file === '-') return readAll(stdin);
  try {
    return await fs.readFile(resolve(cwd, file));
  } catch (error) {
    throw fileReadError(file, error);
  }
}

// Re-exported for callers that still import it from here (src/auth/credentials-store.ts).
export { fileReadReason };

/** A usage error for a file that cannot be read; `flag` names the option that gave it. */
export function fileReadError(file: string, error: unknown, flag?: string): Error {
  const reason = fileReadReason(error);
  const prefix = flag ? `${flag}: ` : '';
  if ((error as NodeJS.ErrnoException).code === 'EISDIR') return usageError(`${prefix}${file} ${reason}`);
  if (!isDescribedReadError(error)) return usageError(`${prefix}${file}: it cannot be read (${reason})`);
  return usageError(`${prefix}${reason}: ${file}`);
}

/**
 * FILE for commands that read FILE or stdin: an explicit FILE wins; without it
 * stdin is read when it is not a terminal (a terminal would wait for typing,
 * and svcctl never hangs waiting for input).
 */
export function inputOrStdin(file: string | undefined, stdin: InputStream, usage: string): string {
  if (file !== undefined) return file;
  if (stdin.isTTY) throw usageError(`no input: give FILE, or '-' and pipe the data in`, usage);
  return '-';
}
