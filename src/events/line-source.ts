/**
 * The input lines of a batch, shared by its workers. Lines arrive a chunk at a
 * time (ndjson-lines.ts splitLineChunks); a worker takes the next one without
 * waiting while the chunk lasts, and only an empty source waits for the input
 * (one read at a time, whichever workers are waiting). Taking a line is a
 * plain call: no promise per line (BENCHMARKS.md, "Where the time goes").
 */
import type { InputLine } from './ndjson-lines.js';

export class LineSource {
  private lines: InputLine[] = [];
  private index = 0;
  private reading: Promise<boolean> | undefined;
  private ended = false;
  private readonly chunks: AsyncIterator<InputLine[]>;

  constructor(chunks: AsyncIterable<InputLine[]>) {
    this.chunks = chunks[Symbol.asyncIterator]();
  }

  /** The next line already read, or undefined when the lines read are used up (then call more()). */
  take(): InputLine | undefined {
    return this.index < this.lines.length ? this.lines[this.index++] : undefined;
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
      this.lines = next.value;
      this.index = 0;
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
