// A batch's results leave in the order of its lines, however the deliveries finish: each waits for those before it.
import type { Output } from '../core/output.js';
import type { InputLine } from './ndjson-lines.js';

/** One line of the batch, from the moment it is taken until its result is written. */
export interface Slot {
  line: InputLine;
  done: boolean;
  text?: string;
  id?: string;
  idGenerated?: boolean;
}

/** A terminal sees each result at once; a pipe or file gets one write per ~1,000 events (as C's stdio buffers). */
const RESULT_BLOCK_MS = 50;
/** Past this much waiting text a write goes out at once, without waiting for the block's time. */
const MAX_PENDING_TEXT = 65_536;

export class OrderedResults {
  private readonly queue: Slot[] = [];
  private head = 0;
  private pendingText = '';
  private writeScheduled = false;
  private readonly waiting: Array<() => void> = [];
  private readonly writeSoon: (write: () => void) => void;

  constructor(private readonly out: Output) {
    this.writeSoon = out.stdout.isTTY
      ? setImmediate
      : (write: () => void) => void setTimeout(write, RESULT_BLOCK_MS).unref();
  }

  /** A slot for a line just taken, at the end of the order. */
  open(line: InputLine): Slot {
    const slot: Slot = { line, done: false };
    this.queue.push(slot);
    return slot;
  }

  /** How many lines are taken whose results cannot leave yet: the distance from the oldest unfinished one. */
  get window(): number {
    return this.queue.length - this.head;
  }

  /** Resolves at the next release: a worker waiting for the window to shrink, or for the batch to stop. */
  released(): Promise<void> {
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The slots still waiting for their result, taken once: finishing them releases (and moves) the queue. */
  unfinished(): Slot[] {
    const slots: Slot[] = [];
    for (let i = this.head; i < this.queue.length; i++) if (!this.queue[i]!.done) slots.push(this.queue[i]!);
    return slots;
  }

  /** Moves the results that are done and have no unfinished line before them to the output. */
  release(): void {
    const { queue } = this;
    let text = '';
    while (this.head < queue.length && queue[this.head]!.done) {
      text += queue[this.head]!.text ?? '';
      queue[this.head] = undefined as unknown as Slot;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > queue.length) {
      queue.splice(0, this.head);
      this.head = 0;
    }
    if (text) {
      this.pendingText += text;
      if (this.pendingText.length > MAX_PENDING_TEXT) this.writeOut();
      else if (!this.writeScheduled) {
        this.writeScheduled = true;
        this.writeSoon(this.writeOut);
      }
    }
    if (this.waiting.length > 0) for (const wake of this.waiting.splice(0)) wake();
  }

  readonly writeOut = (): void => {
    this.writeScheduled = false;
    // Redacted already, when each result was made (deliver.ts, build).
    if (this.pendingText) this.out.raw(this.pendingText, { redacted: true });
    this.pendingText = '';
  };
}
