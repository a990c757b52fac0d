/**
 * Splits a byte stream into NDJSON lines as it arrives, so that a batch of any
 * size is never held in memory whole. Each line keeps its exact bytes (a
 * trailing \r of a CRLF line included) for --failed-out.
 */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { fileReadError } from '../fs/read-input.js';
import type { InputStream } from '../core/context.js';

export interface InputLine {
  /** 1-based line number in the input. */
  number: number;
  /** The line's bytes without its \n (a \r of CRLF kept). */
  raw: Buffer;
}

/** The line's content without the \r of a CRLF ending. */
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

/**
 * A byte stream cut at line ends as it arrives: each Buffer yielded holds whole
 * lines, every one ending in \n (only the input's last line may lack it). A
 * chunk's lines are cut out one at a time as workers take them (line-source.ts),
 * not all at once when it arrives.
 */
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

/** The bytes of FILE (relative to `cwd`), or of stdin for '-', in chunks of whole lines (read in 256 KiB chunks from a file). */
export function inputLineChunks(stdin: InputStream, file: string, cwd: string): AsyncIterable<Buffer> {
  return splitLineChunks(file === '-' ? (stdin as AsyncIterable<Buffer>) : fileChunks(file, cwd));
}

/** A file's chunks; a file that cannot be read (missing, a folder, no permission) is a usage error naming it, as for FILE. */
async function* fileChunks(file: string, cwd: string): AsyncGenerator<Buffer> {
  try {
    yield* createReadStream(resolve(cwd, file), { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
  } catch (error) {
    throw fileReadError(file, error);
  }
}
