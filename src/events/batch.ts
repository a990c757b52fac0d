// A failure that would hit every event (credentials rejected, service down) stops the batch; one line's does not.
import { CliError, ExitCode, type ExitCodeValue } from '../core/errors.js';
import { onInterrupt } from '../core/interrupt.js';
import type { Output } from '../core/output.js';
import { neutralizeControls } from '../core/output.js';
import { buildFromBytes, type BuiltEvent } from './event-body.js';
import { deliverEvent, type Delivery, type DeliveryResult, type DeliveryTarget } from './deliver.js';
import { progressText } from './batch-progress.js';
import { kindOfFailure } from './outcome.js';
import type { FailedOut } from './failed-out.js';
import { LineSource } from './line-source.js';
import { OrderedResults, type Slot } from './batch-results.js';
import { isBlank, lineContent } from './ndjson-lines.js';

export interface BatchOptions {
  concurrency: number;
  raw: boolean;
  target: DeliveryTarget;
  failedOut: FailedOut;
  out: Output;
  json: boolean;
  spool?: (id: string, body: Buffer) => Promise<void>;
  totalBytes?: number;
}

export interface BatchSummary {
  sent: number;
  failed: number;
  spooled: number;
  elapsedMs: number;
  stoppedBy?: CliError;
  interruptedLines?: number;
}

/** A line's word in --json: an event's outcome (outcome.ts), or what kept a line from being one. */
function lineOutcome(exitCode: ExitCodeValue | undefined): string {
  if (exitCode === ExitCode.InvalidData) return 'invalid';
  if (exitCode === ExitCode.Interrupted) return 'interrupted';
  return kindOfFailure(exitCode);
}

const MAX_WARNINGS = 20;
/** Bounds memory: how far results may run ahead of the oldest unfinished line. */
const MAX_WINDOW = 4096;

export function runBatch(chunks: AsyncIterable<Buffer>, options: BatchOptions): Promise<BatchSummary> {
  return new Batch(chunks, options).run();
}

class Batch {
  private sent = 0;
  private failed = 0;
  private spooled = 0;
  private bytesDone = 0;
  private warnings = 0;
  private interruptedLines = 0;
  private stoppedBy: CliError | undefined;
  private readonly started = Date.now();
  private readonly source: LineSource;
  private readonly results: OrderedResults;

  constructor(
    chunks: AsyncIterable<Buffer>,
    private readonly options: BatchOptions,
  ) {
    this.source = new LineSource(chunks);
    this.results = new OrderedResults(options.out);
  }

  async run(): Promise<BatchSummary> {
    const { out, failedOut, concurrency } = this.options;
    let wakeInterrupted: () => void = () => {};
    const interrupted = new Promise<void>((resolve) => (wakeInterrupted = resolve));
    const stopOnInterrupt = onInterrupt(() => {
      this.giveUpInFlight();
      wakeInterrupted();
    });
    const progress = this.showProgress();
    try {
      await Promise.race([Promise.all(Array.from({ length: concurrency }, () => this.sendLines())), interrupted]);
      if (this.stoppedBy && this.stoppedBy.exitCode !== ExitCode.Interrupted) await this.skipRest(this.stoppedBy);
    } finally {
      stopOnInterrupt();
      this.results.writeOut();
      clearInterval(progress);
      out.clearProgress();
      failedOut.close();
    }
    const { sent, failed, spooled, stoppedBy, interruptedLines } = this;
    return { sent, failed, spooled, elapsedMs: Date.now() - this.started, stoppedBy, interruptedLines };
  }

  // Build and settle are plain calls, so an event costs one await (its delivery) and no promise of its own.
  private async sendLines(): Promise<void> {
    const { source, results } = this;
    for (;;) {
      while (results.window >= MAX_WINDOW && !this.stoppedBy) await results.released();
      if (this.stoppedBy) return;
      const line = source.take();
      if (line === undefined) {
        if (await source.more()) continue;
        return;
      }
      if (isBlank(lineContent(line))) continue;
      const slot = results.open(line);
      const built = this.build(slot);
      if (built === undefined) continue;
      const spooling = this.settle(slot, built, await deliverEvent(this.options.target, built.id, built.body));
      if (spooling) await spooling;
    }
  }

  private build(slot: Slot): BuiltEvent | undefined {
    let built;
    try {
      built = buildFromBytes(lineContent(slot.line), { raw: this.options.raw, line: slot.line.number });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      this.options.out.error(error.message);
      this.finish(slot, undefined, error);
      return undefined;
    }
    for (let i = 0; i < built.warnings.length; i++) this.warn(built.warnings[i]!);
    slot.id = built.id;
    slot.idGenerated = built.idGenerated;
    return built;
  }

  private settle(slot: Slot, built: BuiltEvent, delivery: Delivery): Promise<void> | undefined {
    if (slot.done) return undefined; // given up on by an interruption: its line is already in --failed-out
    const { failure } = delivery;
    if (failure?.exitCode === ExitCode.Unavailable && this.options.spool) {
      return this.options.spool(built.id, built.body).then(() => this.finish(slot, delivery.result, undefined, true));
    }
    if (failure) {
      // Said once with the batch's end, not again for each line that was already in flight.
      const systemic =
        failure.exitCode === ExitCode.AuthRejected ||
        failure.exitCode === ExitCode.Unavailable ||
        delivery.result.status === 404;
      const message = `line ${slot.line.number} (event ${built.id}): ${failure.message}`;
      if (!systemic) this.options.out.error(message);
      else this.stoppedBy ??= new CliError(failure.exitCode, message, { hint: failure.hint });
    }
    this.finish(slot, delivery.result, failure);
    return undefined;
  }

  /** `kind`: what became of the line when it is not what its error says (the rest of a batch that stopped). */
  private finish(
    slot: Slot,
    result: DeliveryResult | undefined,
    error: CliError | undefined,
    kept = false,
    kind?: string,
  ): void {
    if (slot.done) return; // already given up on by an interruption
    this.bytesDone += slot.line.raw.length + 1;
    if (error) {
      this.failed++;
      this.options.failedOut.append(slot.line.raw);
    } else if (kept) this.spooled++;
    else this.sent++;
    if (this.options.json)
      slot.text = jsonResultLine(slot, result, error, kind ?? (kept ? 'spooled' : undefined), this.options);
    else if (!error && result) slot.text = `${result.id}\n`;
    slot.done = true;
    this.results.release();
  }

  private warn(message: string): void {
    this.warnings++;
    if (this.warnings <= MAX_WARNINGS) this.options.out.warn(message);
    else if (this.warnings === MAX_WARNINGS + 1) this.options.out.warn('more warnings are not shown');
  }

  // An answer may be lost in flight, so an interrupted line may have arrived: its event id makes a resend safe.
  private giveUpInFlight(): void {
    this.stoppedBy ??= new CliError(ExitCode.Interrupted, 'interrupted');
    for (const slot of this.results.unfinished()) {
      this.interruptedLines++;
      const error = new CliError(ExitCode.Interrupted, 'not confirmed: interrupted');
      if (slot.id && slot.idGenerated) {
        this.options.out.warn(
          `line ${slot.line.number} was in flight as event ${slot.id}; it has no id of its own, so sending it again may create a second event`,
        );
      }
      const inFlight = slot.id
        ? { id: slot.id, status: null, attempts: 1, response: null, error: error.message }
        : undefined;
      this.finish(slot, inFlight, error);
    }
  }

  /** The lines after a stop are not sent, but each still gets its result line and its place in --failed-out. */
  private async skipRest(stoppedBy: CliError): Promise<void> {
    const { source } = this;
    for (let line = await source.next(); line !== undefined; line = await source.next()) {
      if (isBlank(lineContent(line))) continue;
      const error = new CliError(stoppedBy.exitCode, 'not sent: the batch stopped');
      this.finish(this.results.open(line), undefined, error, false, 'skipped');
    }
  }

  private showProgress(): NodeJS.Timeout {
    const progress = setInterval(() => {
      const { sent, failed, bytesDone } = this;
      const seconds = (Date.now() - this.started) / 1000;
      this.options.out.progress(
        progressText({ sent, failed, seconds, bytesDone, totalBytes: this.options.totalBytes }),
      );
    }, 250);
    progress.unref();
    return progress;
  }
}

/** A line's result in --json; `outcome` when it is not what the error says (spooled, skipped). */
function jsonResultLine(
  slot: Slot,
  result: DeliveryResult | undefined,
  error: CliError | undefined,
  outcome: string | undefined,
  options: BatchOptions,
): string {
  const fields = result ?? {
    id: null,
    status: null,
    attempts: 0,
    response: null,
    error: error && options.target.redactor.redact(error.message),
  };
  const line = { line: slot.line.number, outcome: outcome ?? lineOutcome(error?.exitCode), ...fields };
  return `${neutralizeControls(JSON.stringify(line))}\n`;
}
