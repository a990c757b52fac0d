/** `event send --ndjson --dry-run | --print-curl`: every request of a batch, sent nowhere. */
import type { Context } from '../context.js';
import { CliError, exitWith, ExitCode } from '../errors.js';
import { buildFromBytes } from '../events/event-body.js';
import { isBlank, lineContent, type InputLine } from '../events/ndjson-lines.js';

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
      const built = buildFromBytes(content, { raw, label: `line ${line.number}` });
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
