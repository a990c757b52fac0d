/** The read-side round trip of one installed remote entry: `mcp list`, `mcp print` and `mcp doctor` agree with the file. */
import assert from 'node:assert/strict';
import type { RunResult } from './cli.js';

export async function listPrintDoctor(
  run: (args: string[]) => Promise<RunResult>,
  id: string,
  entry: unknown,
): Promise<RunResult> {
  const listed = await run(['mcp', 'list', '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    JSON.parse(listed.stdout).map((row: { client: string; name: string; mode: string }) => [
      row.client,
      row.name,
      row.mode,
    ]),
    [[id, 'service', 'remote']],
  );

  const printed = await run(['--json', 'mcp', 'print', '--client', id, '--mode', 'remote']);
  assert.equal(printed.code, 0, printed.stderr);
  assert.deepEqual(JSON.parse(printed.stdout).entry, entry);

  const doctor = await run(['mcp', 'doctor', '--client', id]);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.match(doctor.stdout, /^✓ tools\/list: /m);
  return doctor;
}
