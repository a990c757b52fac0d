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
import { isBlank, lineContent, type InputLine } from './ndjson-lines.js';

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

interface Slot {
  line: InputLine;
  done: boolean;
  text?: string;
  id?: string;
  idGenerated?: boolean;
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
/** A terminal sees each result at once; a pipe or file gets one write per ~1,000 events (as C's stdio buffers). */
const RESULT_BLOCK_MS = 50;

export async function runBatch(chunks: AsyncIterable<Buffer>, options: BatchOptions): Promise<BatchSummary> {
  const { out, failedOut } = options;
  const source = new LineSource(chunks);
  const queue: Slot[] = [];
  let head = 0;
  let sent = 0;
  let failed = 0;
  let spooled = 0;
  let bytesDone = 0;
  let warnings = 0;
  let stoppedBy: CliError | undefined;
  const waiting: Array<() => void> = [];
  const started = Date.now();

  const warn = (message: string): void => {
    warnings++;
    if (warnings <= MAX_WARNINGS) out.warn(message);
    else if (warnings === MAX_WARNINGS + 1) out.warn('more warnings are not shown');
  };

  const writeSoon = out.stdout.isTTY
    ? setImmediate
    : (write: () => void) => void setTimeout(write, RESULT_BLOCK_MS).unref();
  let pendingText = '';
  let writeScheduled = false;
  const writeOut = (): void => {
    writeScheduled = false;
    // Redacted already, when each result was made (deliver.ts, build).
    if (pendingText) out.raw(pendingText, { redacted: true });
    pendingText = '';
  };

  const flush = (): void => {
    let text = '';
    while (head < queue.length && queue[head]!.done) {
      text += queue[head]!.text ?? '';
      queue[head] = undefined as unknown as Slot;
      head++;
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    if (text) {
      pendingText += text;
      if (pendingText.length > 65_536) writeOut();
      else if (!writeScheduled) {
        writeScheduled = true;
        writeSoon(writeOut);
      }
    }
    if (waiting.length > 0) for (const wake of waiting.splice(0)) wake();
  };

  /** `kind`: what became of the line when it is not what its error says (the rest of a batch that stopped). */
  const finish = (
    slot: Slot,
    result: DeliveryResult | undefined,
    error: CliError | undefined,
    kept = false,
    kind?: string,
  ): void => {
    if (slot.done) return; // already given up on by an interruption
    bytesDone += slot.line.raw.length + 1;
    if (error) {
      failed++;
      failedOut.append(slot.line.raw);
    } else if (kept) spooled++;
    else sent++;
    if (options.json) {
      const fields = result ?? {
        id: null,
        status: null,
        attempts: 0,
        response: null,
        error: error && options.target.redactor.redact(error.message),
      };
      const outcome = kind ?? (kept ? 'spooled' : lineOutcome(error?.exitCode));
      slot.text = `${neutralizeControls(JSON.stringify({ line: slot.line.number, outcome, ...fields }))}\n`;
    } else if (!error && result) slot.text = `${result.id}\n`;
    slot.done = true;
    flush();
  };

  const build = (slot: Slot): BuiltEvent | undefined => {
    let built;
    try {
      built = buildFromBytes(lineContent(slot.line), { raw: options.raw, line: slot.line.number });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      out.error(error.message);
      finish(slot, undefined, error);
      return undefined;
    }
    for (let i = 0; i < built.warnings.length; i++) warn(built.warnings[i]!);
    slot.id = built.id;
    slot.idGenerated = built.idGenerated;
    return built;
  };

  const settle = (slot: Slot, built: BuiltEvent, delivery: Delivery): Promise<void> | undefined => {
    if (slot.done) return undefined; // given up on by an interruption: its line is already in --failed-out
    if (delivery.failure?.exitCode === ExitCode.Unavailable && options.spool) {
      return options.spool(built.id, built.body).then(() => finish(slot, delivery.result, undefined, true));
    }
    if (delivery.failure) {
      // Said once with the batch's end, not again for each line that was already in flight.
      const failure = delivery.failure;
      const systemic =
        failure.exitCode === ExitCode.AuthRejected ||
        failure.exitCode === ExitCode.Unavailable ||
        delivery.result.status === 404;
      if (!systemic) out.error(`line ${slot.line.number} (event ${built.id}): ${failure.message}`);
      else if (!stoppedBy)
        stoppedBy = new CliError(failure.exitCode, `line ${slot.line.number} (event ${built.id}): ${failure.message}`, {
          hint: failure.hint,
        });
    }
    finish(slot, delivery.result, delivery.failure);
    return undefined;
  };

  // Build and settle are plain calls, so an event costs one await (its delivery) and no promise of its own.
  const worker = async (): Promise<void> => {
    for (;;) {
      while (queue.length - head >= MAX_WINDOW && !stoppedBy) {
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      if (stoppedBy) return;
      const line = source.take();
      if (line === undefined) {
        if (await source.more()) continue;
        return;
      }
      if (isBlank(lineContent(line))) continue;
      const slot: Slot = { line, done: false };
      queue.push(slot);
      const built = build(slot);
      if (built === undefined) continue;
      const spooling = settle(slot, built, await deliverEvent(options.target, built.id, built.body));
      if (spooling) await spooling;
    }
  };

  // An answer may be lost in flight, so an interrupted line may have arrived: its event id makes a resend safe.
  let interruptedLines = 0;
  let wakeInterrupted: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => (wakeInterrupted = resolve));
  const stopOnInterrupt = onInterrupt(() => {
    stoppedBy ??= new CliError(ExitCode.Interrupted, 'interrupted');
    for (let i = head; i < queue.length; i++) {
      const slot = queue[i]!;
      if (slot.done) continue;
      interruptedLines++;
      const error = new CliError(ExitCode.Interrupted, 'not confirmed: interrupted');
      if (slot.id && slot.idGenerated) {
        out.warn(
          `line ${slot.line.number} was in flight as event ${slot.id}; it has no id of its own, so sending it again may create a second event`,
        );
      }
      const inFlight = slot.id
        ? { id: slot.id, status: null, attempts: 1, response: null, error: error.message }
        : undefined;
      finish(slot, inFlight, error);
    }
    wakeInterrupted();
  });

  const progress = setInterval(() => {
    const seconds = (Date.now() - started) / 1000;
    out.progress(progressText({ sent, failed, seconds, bytesDone, totalBytes: options.totalBytes }));
  }, 250);
  progress.unref();
  try {
    await Promise.race([Promise.all(Array.from({ length: options.concurrency }, worker)), interrupted]);
    if (stoppedBy && stoppedBy.exitCode !== ExitCode.Interrupted) {
      for (let line = await source.next(); line !== undefined; line = await source.next()) {
        if (isBlank(lineContent(line))) continue;
        const slot: Slot = { line, done: false };
        queue.push(slot);
        finish(slot, undefined, new CliError(stoppedBy.exitCode, 'not sent: the batch stopped'), false, 'skipped');
      }
    }
  } finally {
    stopOnInterrupt();
    writeOut();
    clearInterval(progress);
    out.clearProgress();
    failedOut.close();
  }
  return { sent, failed, spooled, elapsedMs: Date.now() - started, stoppedBy, interruptedLines };
}
