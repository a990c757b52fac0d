/** `svcctl mcp get`: the entry that is installed (where `mcp print` shows what install would write), found as `mcp
 * doctor` finds it, with its file; secret values masked (`***`), references such as ${VAR} kept. */
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { foreign } from '../core/output.js';
import type { McpEntryOptions } from '../mcp/install/entry-request.js';
import { isUnreadable, locateEntry } from '../mcp/doctor/locate-entry.js';
import { duplicatesProblem } from '../mcp/install/duplicate-entries.js';
import { maskEntry } from '../redaction/mask-entry.js';

export async function runMcpGet(ctx: Context, options: McpEntryOptions): Promise<void> {
  const located = await locateEntry(ctx, options, { several: 'refuse', command: 'get' });
  if (isUnreadable(located))
    throw new CliError(ExitCode.UnsafeConfig, located.problem, {
      hint: `fix ${located.file}, or reinstall: svcctl mcp install --force`,
    });
  if (located.duplicated)
    ctx.out.warn(
      `${duplicatesProblem(located.file, [located.name])}; shown: the last copy, which most clients read (fix the file by hand)`,
    );
  const entry = maskEntry(located.value, ctx.secrets);
  if (ctx.globals.json) {
    ctx.out.jsonResult({ client: located.client, scope: located.scope, file: located.file, name: located.name, entry });
    return;
  }
  const file = foreign(located.file);
  const where = located.client === null ? file : `${located.client} (${located.scope} scope)`;
  ctx.out.info(
    `'${foreign(located.name)}' of ${where}, in ${file}${located.stale ? ' (a place the installed client does not read)' : ''}:`,
  );
  ctx.out.result(JSON.stringify(entry, null, 2));
}
