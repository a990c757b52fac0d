/** Helpers for the config-file tests: fixtures, and a check that only one region of a text changed. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export const FIXTURES = join(ROOT, 'test', 'fixtures', 'mcp');

export async function fixture(name: string): Promise<string> {
  return readFile(join(FIXTURES, name), 'utf8');
}

/**
 * The one region where two texts differ: what was taken out of `before` and
 * what was put in. Everything before and after it is byte-identical by
 * construction, so a test can assert that only blanks/commas were taken out.
 */
export function changedRegion(before: string, after: string): { removed: string; inserted: string } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) {
    end += 1;
  }
  return { removed: before.slice(start, before.length - end), inserted: after.slice(start, after.length - end) };
}

/** The value svcctl would write for a local-mode server, used by the format tests. */
export const LOCAL_ENTRY = {
  command: 'npx',
  args: ['-y', 'service-mcp-server@latest'],
  env: { SERVICE_BASE_URL: 'https://acme.example.com/api' },
};
