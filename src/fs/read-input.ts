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

export async function readInputBytes(file: string, stdin: InputStream, cwd: string): Promise<Buffer> {
  if (file === '-') return readAll(stdin);
  try {
    return await fs.readFile(resolve(cwd, file));
  } catch (error) {
    throw fileReadError(file, error);
  }
}

export { fileReadReason };

export function fileReadError(file: string, error: unknown, flag?: string): Error {
  const reason = fileReadReason(error);
  const prefix = flag ? `${flag}: ` : '';
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
