/**
 * `svcctl mcp get`: the entry that is installed (where `mcp print` shows what install would write), found
 * as `mcp doctor` finds it, with its file; secret values masked (`***`), references such as ${VAR} kept.
 */
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import type { McpEntryOptions } from '../mcp/install/entry-request.js';
import { isUnreadable, locateEntry } from '../mcp/doctor/locate-entry.js';
import { isReference, isSecretName } from '../secrets/secret-names.js';
import { hideUrlPasswords } from '../secrets/redaction.js';

/** A header given as an argument (mcp-remote --header "Name: value"): its value is masked when the name is a secret's. */
const HEADER_ARG = /^([\w-]+\s*:\s*)(.*)$/;

function maskString(key: string | undefined, value: string): string {
  if (key !== undefined && isSecretName(key) && value !== '' && !isReference(value)) {
    const scheme = /^(?:Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
    return `${scheme}***`;
  }
  const header = HEADER_ARG.exec(value);
  if (header && isSecretName(header[1]!.replace(/\s*:\s*$/, '')) && !isReference(header[2]!)) return `${header[1]}***`;
  return hideUrlPasswords(value);
}

export function maskEntry(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return maskString(key, value);
  if (Array.isArray(value)) return value.map((item) => maskEntry(item));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskEntry(v, k)]));
  return value;
}

export async function runMcpGet(ctx: Context, options: McpEntryOptions): Promise<void> {
  const located = await locateEntry(ctx, options, { several: 'refuse', command: 'get' });
  if (isUnreadable(located))
    throw new CliError(ExitCode.UnsafeConfig, located.problem, {
      hint: `fix ${located.file}, or reinstall: svcctl mcp install --force`,
    });
  const entry = maskEntry(located.value);
  if (ctx.globals.json) {
    ctx.out.jsonResult({ client: located.client, scope: located.scope, file: located.file, name: located.name, entry });
    return;
  }
  const where = located.client === null ? located.file : `${located.client} (${located.scope} scope)`;
  ctx.out.info(
    `'${located.name}' of ${where}, in ${located.file}${located.stale ? ' (a place the installed client does not read)' : ''}:`,
  );
  ctx.out.result(JSON.stringify(entry, null, 2));
}
