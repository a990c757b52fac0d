// Streamed so a batch is never held whole; each line keeps its exact bytes (a CRLF's \r too) for --failed-out.
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { fileReadError } from '../fs/read-input.js';
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

/** A chunk's lines are cut out one at a time as workers take them (line-source.ts), not all at once on arrival. */
export async function* splitLineChunks(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  for await (const chunk of stream) {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (carry) {
      data = Buffer.concat([carry, data]);
      carry = undefined;
    }
    const end = data.lastIndexOf(0x0a) + 1;
    if (end < data.length) carry = Buffer.from(data.subarray(end));
    if (end > 0) yield data.subarray(0, end);
  }
  if (carry && carry.length > 0) yield carry;
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
