// The real dump tools (od, xxd, hexdump, base32, iconv) that the redaction tests feed a secret through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';

/** What `sh -c command` prints for the input, byte for byte (latin1); undefined when it fails or is not installed. */
export function dumpWith(command: string, input: string): string | undefined {
  const result = spawnSync('sh', ['-c', command], { input: Buffer.from(input), encoding: 'latin1' });
  return result.status === 0 ? result.stdout : undefined;
}

/** The commands that run here; the others are named in the test's diagnostics. od (coreutils) must run. */
export function installedDumpTools(t: TestContext, commands: string[]): string[] {
  const missing = commands.filter((command) => dumpWith(command, 'a') === undefined);
  if (missing.length > 0) t.diagnostic(`not installed, not checked: ${missing.join(', ')}`);
  // od is in coreutils, on every machine: without it the test would check nothing.
  assert.deepEqual(
    missing.filter((command) => command.startsWith('od ')),
    [],
    'od (coreutils) runs',
  );
  return commands.filter((command) => !missing.includes(command));
}
