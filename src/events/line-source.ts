// Taking a line is a plain call, no promise per line (BENCHMARKS.md, "Where the time goes").
import type { InputStream } from '../core/context.js';
import { type CliError, invalidData } from '../core/errors.js';
import { sizeText } from '../fs/regular-file.js';
import { type InputLine, inputLineChunks, LineTooLong } from './ndjson-lines.js';

const lineTooLong = (number: number, maxBytes: number): CliError =>
  invalidData(
    `line ${number}: more than ${sizeText(maxBytes)} without a line feed, over the limit of one event; nothing after it was read`,
    'give one JSON event per line (NDJSON)',
  );

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

  take(): InputLine | undefined {
    const { chunk, offset } = this;
    if (offset >= chunk.length) return undefined;
    const newline = chunk.indexOf(0x0a, offset);
    const end = newline === -1 ? chunk.length : newline;
    this.offset = end + 1;
    return { number: ++this.number, raw: chunk.subarray(offset, end) };
  }

  more(): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    this.reading ??= this.chunks.next().then(
      (next) => {
        this.reading = undefined;
        if (next.done) {
          this.ended = true;
          return false;
        }
        this.chunk = next.value;
        this.offset = 0;
        return true;
      },
      (error: unknown) => {
        // More is read only once every line before is taken, so the line that ran over is the next one.
        throw error instanceof LineTooLong ? lineTooLong(this.number + 1, error.maxBytes) : error;
      },
    );
    return this.reading;
  }

  async next(): Promise<InputLine | undefined> {
    for (;;) {
      const line = this.take();
      if (line !== undefined || !(await this.more())) return line;
    }
  }
}

export async function* inputLines(stdin: InputStream, file: string, cwd: string): AsyncGenerator<InputLine> {
  const source = new LineSource(inputLineChunks(stdin, file, cwd));
  for (let line = await source.next(); line !== undefined; line = await source.next()) yield line;
}
