/** `event send --ndjson`: many events from a file or stdin, delivered with bounded concurrency (events/batch.ts). A
 * chunk of its own, loaded only for a batch, so that one event does not load the batch machinery. */
import { statSync } from 'node:fs';
import type { Context } from '../core/context.js';
import { useLowMemoryEngine } from '../startup/engine-memory.js';
import { CliError, exitWith, ExitCode } from '../core/errors.js';
import { runBatch } from '../events/batch.js';
import type { FailedOut } from '../events/failed-out.js';
import { inputLineChunks } from '../events/ndjson-lines.js';
import type { EventSendOptions, Resolved } from './event-send-options.js';
import { deliveryTarget } from './event-send-target.js';
import { batchSpool } from './event-spool.js';

export async function sendBatch(
  ctx: Context,
  options: EventSendOptions,
  { baseUrl, url, token, secret, failedOut: given }: Resolved,
): Promise<void> {
  const failedOut = given as FailedOut;
  useLowMemoryEngine();
  const target = await deliveryTarget(ctx, options, url, token!.value, secret, options.concurrency);
  target.keepResponse = ctx.globals.json;
  try {
    const summary = await runBatch(inputLineChunks(ctx.stdin, options.file as string, ctx.cwd), {
      concurrency: options.concurrency,
      raw: options.raw,
      target,
      failedOut,
      out: ctx.out,
      json: ctx.globals.json,
      spool: batchSpool(ctx, options.spool, baseUrl),
      totalBytes: inputSize(options.file as string),
    });
    const seconds = summary.elapsedMs / 1000;
    const rate = Math.round(summary.sent / Math.max(seconds, 0.001));
    ctx.out.info(`sent ${summary.sent}, failed ${summary.failed} in ${seconds.toFixed(1)}s (${rate} events/s)`);
    if (summary.sent + summary.failed + summary.spooled === 0 && !summary.stoppedBy) {
      ctx.out.warn(
        `no event was read from ${options.file === '-' ? 'stdin' : options.file}: the input is empty (or holds only blank lines), so nothing was sent`,
      );
    }
    if (summary.spooled > 0)
      ctx.out.warn(
        `${summary.spooled} ${summary.spooled === 1 ? 'event' : 'events'} the service could not take were spooled; send them later with 'svcctl event flush'`,
      );
    if (summary.failed > 0) {
      if (failedOut.path)
        ctx.out.info(
          `the ${summary.failed} ${summary.failed === 1 ? 'line' : 'lines'} not delivered were appended to ${failedOut.path}`,
        );
      else ctx.out.warn('lines that were not delivered are lost unless --failed-out <file> is given');
    }
    if (summary.stoppedBy?.exitCode === ExitCode.Interrupted) {
      await target.transport.abort();
      throw new CliError(
        ExitCode.Interrupted,
        `interrupted: ${summary.interruptedLines ?? 0} ${summary.interruptedLines === 1 ? 'line' : 'lines'} in flight ${summary.interruptedLines === 1 ? 'was' : 'were'} not confirmed`,
        {
          hint: failedOut.path
            ? `they were appended to ${failedOut.path}; no input was read after them`
            : 'give --failed-out <file> to keep them',
        },
      );
    }
    if (summary.stoppedBy)
      throw new CliError(summary.stoppedBy.exitCode, `the batch stopped at ${summary.stoppedBy.message}`, {
        hint: summary.stoppedBy.hint,
      });
    if (summary.failed > 0) throw exitWith(ExitCode.PartialFailure);
  } finally {
    await target.transport.close();
  }
}

/** The size of a regular input file (for the progress line); undefined for stdin, a pipe or a device. */
function inputSize(file: string): number | undefined {
  if (file === '-') return undefined;
  try {
    const info = statSync(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined; // reading it says why
  }
}
