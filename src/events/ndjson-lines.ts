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

export async function* splitLines(stream: AsyncIterable<Buffer | string>): AsyncGenerator<InputLine> {
  let carry: Buffer | undefined;
  let number = 0;
  for await (const chunk of stream) {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (carry) {
      data = Buffer.concat([carry, data]);
      carry = undefined;
    }
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end !== -1; end = data.indexOf(0x0a, start)) {
      yield { number: ++number, raw: data.subarray(start, end) };
      start = end + 1;
    }
    if (start < data.length) carry = Buffer.from(data.subarray(start));
  }
  if (carry && carry.length > 0) yield { number: ++number, raw: carry };
}

/** The lines of FILE, or of stdin for '-' (read in 256 KiB chunks from a file). */
export function inputLines(stdin: InputStream, file: string): AsyncIterable<InputLine> {
  const stream = file === '-' ? stdin : createReadStream(file, { highWaterMark: 256 * 1024 });
  return splitLines(stream as AsyncIterable<Buffer>);
}
