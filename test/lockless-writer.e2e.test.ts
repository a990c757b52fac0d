/**
 * A program that keeps rewriting its file without a lock (read, hold it a moment,
 * change its own key, temp file, rename: Claude Code's pattern with ~/.claude.json), while
 * five `svcctl mcp install --client claude-code` runs add their entries (or five
 * `mcp uninstall` runs remove them).
 * svcctl reads the file back after its write and makes its change again when the
 * other program undid it (src/mcp/install/confirm-entry.ts), so every install
 * that exits 0 has its entry in the file at the end, every uninstall that exits 0
 * has it gone, one that exits 7 left it as it was, and the other program's last
 * change is kept.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { placeFile, spawnCli, type RunResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const RUNS = 5;
const INSTALLS = 5;
const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
/** Only against a hang: with ten commands and other tests at once, one run can take many seconds. */
const HANG_GUARD_MS = 300_000;

/**
 * A writer with no lock that holds what it read for a moment before writing it back (as a client does with the
 * config it loaded): whatever svcctl wrote in that moment is dropped, the race that svcctl's read-back answers.
 */
function startPlainWriter(file: string): { stop: () => Promise<number> } {
  let count = 0;
  let running = true;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const loop = (async () => {
    while (running) {
      try {
        const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        await pause(Math.random() * 4);
        data.writerCount = count + 1;
        writeFileSync(`${file}.writer`, `${JSON.stringify(data, null, 2)}\n`);
        renameSync(`${file}.writer`, file);
        count++; // counted once in the file: a write that failed changed nothing
      } catch {
        // read while svcctl renamed: try again
      }
      await pause(2);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return count;
    },
  };
}

/**
 * One run: the file starts with `servers` (and the other program's `theirs`), the writer runs while the
 * five commands do, and the file as the writer left it is checked for the other program's last change.
 */
async function runBesideWriter(
  run: number,
  servers: Record<string, unknown>,
  args: (index: number) => string[],
): Promise<{ results: RunResult[]; final: { mcpServers: Record<string, unknown> } }> {
  const home = await tempDir('svcctl-lockless-');
  const file = await placeFile(
    home,
    '.claude.json',
    `${JSON.stringify({ numStartups: 3, mcpServers: { theirs: { type: 'http', url: 'https://x.example/mcp' }, ...servers } })}\n`,
  );
  const writer = startPlainWriter(file);
  // Separate processes: in the test's own event loop the writer could never land a write between svcctl's steps.
  const results = await Promise.all(
    Array.from({ length: INSTALLS }, (_, index) => spawnCli(args(index), { home, env: ENV, timeoutMs: HANG_GUARD_MS })),
  );
  const writes = await writer.stop();
  const final = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown>; writerCount: number };
  assert.equal(final.writerCount, writes, `run ${run}: the other program's last change is kept`);
  assert.ok(final.mcpServers.theirs, `run ${run}: the other entries are kept`);
  return { results, final };
}

// The two tests run at once: each has its own files and writer, and the machine is meant to be loaded.
describe('svcctl beside a writer that takes no lock', { concurrency: true }, () => {
  it(`${RUNS} runs of ${INSTALLS} installs against a writer that keeps rewriting ~/.claude.json`, async (t) => {
    let putBack = 0;
    let refused = 0;
    for (let run = 0; run < RUNS; run++) {
      const { results, final } = await runBesideWriter(run, {}, (index) => [
        'mcp',
        'install',
        '--client',
        'claude-code',
        '--mode',
        'remote',
        '--name',
        `srv${index}`,
      ]);
      results.forEach((result, index) => {
        const name = `srv${index}`;
        putBack += (result.stderr.match(/putting it back/g) ?? []).length;
        if (result.code === 0) {
          assert.ok(
            final.mcpServers[name],
            `run ${run}: install ${index} exited 0 but ${name} is missing\n${result.stderr}`,
          );
        } else {
          refused++;
          if (refused < 3)
            t.diagnostic(
              result.stderr
                .split('\n')
                .filter((line) => line.includes('error'))
                .join(' | '),
            );
          assert.equal(result.code, 7, `run ${run} install ${index}: ${result.stderr}`);
          assert.equal(
            final.mcpServers[name],
            undefined,
            `run ${run} install ${index}: exit 7 but ${name} is in the file`,
          );
        }
      });
    }
    // Every run refused would check only the refusals, never what an exit 0 promises.
    assert.ok(refused < RUNS * INSTALLS, `all ${RUNS * INSTALLS} installs refused`);
    t.diagnostic(
      `${RUNS * INSTALLS} installs: ${refused} refused (exit 7), entries put back after the other program dropped them: ${putBack}`,
    );
  });

  it(`${RUNS} runs of ${INSTALLS} uninstalls against the same writer: an uninstall that exits 0 leaves its entry gone`, async (t) => {
    let removedAgain = 0;
    let refused = 0;
    for (let run = 0; run < RUNS; run++) {
      const ours = Object.fromEntries(
        Array.from({ length: INSTALLS }, (_, index) => [
          `srv${index}`,
          { type: 'http', url: 'https://acme.example.com/mcp' },
        ]),
      );
      const { results, final } = await runBesideWriter(run, ours, (index) => [
        'mcp',
        'uninstall',
        '--client',
        'claude-code',
        '--name',
        `srv${index}`,
      ]);
      results.forEach((result, index) => {
        const name = `srv${index}`;
        removedAgain += (result.stderr.match(/removing it again/g) ?? []).length;
        if (result.code === 0) {
          assert.equal(
            final.mcpServers[name],
            undefined,
            `run ${run}: uninstall ${index} exited 0 but ${name} is back\n${result.stderr}`,
          );
        } else {
          refused++;
          assert.equal(result.code, 7, `run ${run} uninstall ${index}: ${result.stderr}`);
          assert.ok(final.mcpServers[name], `run ${run} uninstall ${index}: exit 7 but ${name} is gone`);
        }
      });
    }
    // Every run refused would check only the refusals, never what an exit 0 promises.
    assert.ok(refused < RUNS * INSTALLS, `all ${RUNS * INSTALLS} uninstalls refused`);
    t.diagnostic(
      `${RUNS * INSTALLS} uninstalls: ${refused} refused (exit 7), entries removed again after the other program brought them back: ${removedAgain}`,
    );
  });
});
