// Streamed so a batch is never held whole; each line keeps its exact bytes (a CRLF's \r too) for --failed-out.
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { fileReadError, MAX_EVENT_BYTES } from '../fs/read-input.js';
import type { InputStream } from '../core/context.js';

export interface InputLine {
  number: number;
  raw: Buffer;
}

export function lineContent(line: InputLine): Buffer {
  const { raw } = line;
  return raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
}

export function isBlank(content: Buffer): boolean {
  for (let i = 0; i < content.length; i++) {
    const byte = content[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/** A line longer than MAX_EVENT_BYTES: no event is that big, and holding it would hold the input (`/dev/zero`). */
export class LineTooLong extends Error {
  constructor(readonly maxBytes: number) {
    super('line too long');
  }
}

/** A chunk's lines are cut out one at a time as workers take them (line-source.ts), not all at once on arrival. The
 * start of a line that spans chunks is kept in parts and joined once its end arrives, never over `maxLineBytes`. */
export async function* splitLineChunks(
  stream: AsyncIterable<Buffer | string>,
  maxLineBytes = MAX_EVENT_BYTES,
): AsyncGenerator<Buffer> {
  let carry: Buffer[] = [];
  let carried = 0;
  for await (const chunk of stream) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const end = data.lastIndexOf(0x0a) + 1;
    if (end === 0) {
      carry.push(data);
      carried += data.length;
      if (carried > maxLineBytes) throw new LineTooLong(maxLineBytes);
      continue;
    }
    if (carried > 0) {
      if (carried + data.indexOf(0x0a) > maxLineBytes) throw new LineTooLong(maxLineBytes);
      carry.push(data.subarray(0, end));
      yield Buffer.concat(carry);
    } else yield data.subarray(0, end);
    // A copy, so that the chunk it came from is not held for a line's few bytes.
    carry = end < data.length ? [Buffer.from(data.subarray(end))] : [];
    carried = data.length - end;
  }
  if (carried > 0) yield Buffer.concat(carry);
}

export function inputLineChunks(stdin: InputStream, file: string, cwd: string): AsyncIterable<Buffer> {
  return splitLineChunks(file === '-' ? (stdin as AsyncIterable<Buffer>) : fileChunks(file, cwd));
}

async function* fileChunks(file: string, cwd: string): AsyncGenerator<Buffer> {
  try {
    yield* createReadStream(resolve(cwd, file), { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
  } catch (error) {
    throw fileReadError(file, error);
  }
}
