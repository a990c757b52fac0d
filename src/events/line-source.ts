/**
 * The input lines of a batch, shared by its workers. The input arrives a chunk
 * of whole lines at a time (ndjson-lines.ts splitLineChunks); a worker takes
 * the next line without waiting while the chunk lasts (the line is cut out of
 * the chunk then, not before), and only an empty source waits for the input
 * (one read at a time, whichever workers are waiting). Taking a line is a
 * plain call: no promise per line (BENCHMARKS.md, "Where the time goes").
 */
import type { InputStream } from '../core/context.js';
import { inputLineChunks, type InputLine } from './ndjson-lines.js';

export class LineSource {
  private chunk: Buffer = Buffer.alloc(0);
  private offset = 0;
  private number = 0;
  private reading: Promise<boolean> | undefined;
  private ended = false;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(chunks: AsyncIterable<Buffer>) {
    this.chunks = chunks[Symbol.asyncIterator]();
  }

  /** The next line already read, or undefined when the lines read are used up (then call more()). */
  take(): InputLine | undefined {
    const { chunk, offset } = this;
    if (offset >= chunk.length) return undefined;
    const newline = chunk.indexOf(0x0a, offset);
    const end = newline === -1 ? chunk.length : newline;
    this.offset = end + 1;
    return { number: ++this.number, raw: chunk.subarray(offset, end) };
  }

  /** Reads the next chunk of lines; false at the end of the input. */
  more(): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    this.reading ??= this.chunks.next().then((next) => {
      this.reading = undefined;
      if (next.done) {
        this.ended = true;
        return false;
      }
      this.chunk = next.value;
      this.offset = 0;
      return true;
    });
    return this.reading;
  }

  /** The next line, waiting for the input when needed; undefined at its end. */
  async next(): Promise<InputLine | undefined> {
    for (;;) {
      const line = this.take();
      if (line !== undefined || !(await this.more())) return line;
    }
  }
}

/** The lines of FILE, or of stdin for '-', one at a time. */
export async function* inputLines(stdin: InputStream, file: string, cwd: string): AsyncGenerator<InputLine> {
  const source = new LineSource(inputLineChunks(stdin, file, cwd));
  for (let line = await source.next(); line !== undefined; line = await source.next()) yield line;
}
