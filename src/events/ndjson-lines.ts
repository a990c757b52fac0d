/**
 * Splits a byte stream into NDJSON lines as it arrives, so that a batch of any
 * size is never held in memory whole. Each line keeps its exact bytes (a
 * trailing \r of a CRLF line included) for --failed-out.
 */
import { createReadStream } from 'node:fs';
import type { InputStream } from '../context.js';

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
  for (const byte of content) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/**
 * The lines of a byte stream, as they arrive: every complete line of a chunk at
 * once (a batch takes them without waiting for the stream once per line).
 */
export async function* splitLineChunks(stream: AsyncIterable<Buffer | string>): AsyncGenerator<InputLine[]> {
  let carry: Buffer | undefined;
  let number = 0;
  for await (const chunk of stream) {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (carry) {
      data = Buffer.concat([carry, data]);
      carry = undefined;
    }
    const lines: InputLine[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end !== -1; end = data.indexOf(0x0a, start)) {
      lines.push({ number: ++number, raw: data.subarray(start, end) });
      start = end + 1;
    }
    if (start < data.length) carry = Buffer.from(data.subarray(start));
    if (lines.length > 0) yield lines;
  }
  if (carry && carry.length > 0) yield [{ number: ++number, raw: carry }];
}

/** The lines of a byte stream, one at a time. */
export async function* splitLines(stream: AsyncIterable<Buffer | string>): AsyncGenerator<InputLine> {
  for await (const lines of splitLineChunks(stream)) yield* lines;
}

function inputStream(stdin: InputStream, file: string): AsyncIterable<Buffer> {
  return (file === '-' ? stdin : createReadStream(file, { highWaterMark: 256 * 1024 })) as AsyncIterable<Buffer>;
}

/** The lines of FILE, or of stdin for '-', a chunk's lines at a time (read in 256 KiB chunks from a file). */
export function inputLineChunks(stdin: InputStream, file: string): AsyncIterable<InputLine[]> {
  return splitLineChunks(inputStream(stdin, file));
}

/** The lines of FILE, or of stdin for '-', one at a time. */
export function inputLines(stdin: InputStream, file: string): AsyncIterable<InputLine> {
  return splitLines(inputStream(stdin, file));
}
