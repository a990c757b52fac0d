/** Two entries of one name in a client's JSON file (two "acme" under `mcpServers`): JSON parsers keep the last,
 * jsonc-parser's location lookup the first, so svcctl and the client would read different entries. Such a file is
 * broken: `install` and `sync` refuse to write into it and count it not compliant, `list` and `get` warn. */
import { CliError, ExitCode } from '../../core/errors.js';
import { foreign } from '../../core/output.js';
import type { ConfigDocument } from '../../formats/config-document.js';

export const duplicatedNames = (document: ConfigDocument, serversPath: readonly string[]): string[] =>
  document.duplicateKeys?.(serversPath) ?? [];

export function duplicatesProblem(file: string, names: string[]): string {
  const shown = names.map((name) => `'${foreign(name, 80)}'`).join(', ');
  return `${foreign(file)} holds ${shown} more than once: clients read one of them, and which one differs from client to client`;
}

export function refuseDuplicates(document: ConfigDocument, serversPath: readonly string[], file: string): void {
  const names = duplicatedNames(document, serversPath);
  if (names.length === 0) return;
  throw new CliError(ExitCode.UnsafeConfig, duplicatesProblem(file, names), {
    hint: 'remove the extra copies by hand (keep the one you mean), then run the command again',
  });
}
