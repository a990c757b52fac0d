/** `event send --ndjson --dry-run | --print-curl`: every request of a batch, sent nowhere. */
import type { Context } from '../core/context.js';
import { CliError, exitWith, ExitCode } from '../core/errors.js';
import { buildFromBytes, type BuiltEvent } from '../events/event-body.js';
import { inputLines } from '../events/line-source.js';
import { isBlank, lineContent, type InputLine } from '../events/ndjson-lines.js';
import { renderCurl, renderDryRun, renderDryRunJson, type TokenReference } from '../events/request-preview.js';
import type { EventSendOptions, Resolved } from './event-send-options.js';

/** --dry-run and --print-curl: every request printed, none sent (`built` is the single event; undefined with --ndjson). */
export async function previewRequests(
  ctx: Context,
  options: EventSendOptions,
  { url, secret }: Resolved,
  reference: TokenReference,
  built: BuiltEvent | undefined,
): Promise<void> {
  const render = (body: Buffer): Buffer | string => {
    if (options.printCurl) return renderCurl(url, body, secret, reference);
    return ctx.globals.json ? renderDryRunJson(url, body, secret) : renderDryRun(url, body, secret);
  };
  // Text requests are separated by a blank line; JSON ones are NDJSON lines.
  const separator = ctx.globals.json ? '' : '\n';
  if (!built)
    return printDryRunBatch(
      ctx,
      inputLines(ctx.stdin, options.file as string, ctx.cwd),
      options.raw,
      render,
      separator,
    );
  for (const warning of built.warnings) ctx.out.warn(warning);
  ctx.out.raw(render(built.body));
}

export async function printDryRunBatch(
  ctx: Context,
  lines: AsyncIterable<InputLine>,
  raw: boolean,
  render: (body: Buffer) => Buffer | string,
  separator: string,
): Promise<void> {
  let invalid = 0;
  let first = true;
  for await (const line of lines) {
    const content = lineContent(line);
    if (isBlank(content)) continue;
    try {
      const built = buildFromBytes(content, { raw, line: line.number });
      for (const warning of built.warnings) ctx.out.warn(warning);
      if (!first && separator) ctx.out.raw(separator);
      first = false;
      ctx.out.raw(render(built.body));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      invalid++;
      ctx.out.error(error.message);
    }
  }
  if (invalid > 0) throw exitWith(ExitCode.InvalidData);
}
