/**
 * The README demo (scripts/demo.mjs) end to end, as a user runs it after
 * `npm ci`: plain node, a clean environment, nothing else running. It must
 * pass every step, print each step's heading and command, never show a
 * secret, and leave nothing behind.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { cleanEnv, ROOT } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const HEADINGS = [
  '==> 1/8 Start the sandbox',
  '==> 2/8 Log in',
  '==> 3/8 Send a signed event that asks for an investigation',
  '==> 4/8 Send a batch of 5 events',
  '==> 5/8 Install a remote MCP entry for Cursor',
  '==> 6/8 Check the entry for real with mcp doctor',
  '==> 7/8 What the sandbox received',
  '==> 8/8 Stop the sandbox',
];

it('scripts/demo.mjs runs every step against svcctl dev and exits 0', async () => {
  const home = await tempDir('svcctl-demo-test-');
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
    cwd: home,
    env: cleanEnv(home, { SERVICE_BASE_URL: 'https://not-used.example.com/api' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(killer);
  await rm(home, { recursive: true, force: true });
  const output = Buffer.concat(chunks).toString('utf8');
  assert.equal(code, 0, output);

  let position = 0;
  for (const heading of HEADINGS) {
    const at = output.indexOf(heading, position);
    assert.ok(at >= 0, `missing or out of order: ${heading}\n${output}`);
    position = at;
  }
  // Each step shows the command it ran, with the secrets as ***.
  assert.match(output, /^\$ svcctl dev --port 0 --events-file \S+events\.ndjson &$/m);
  assert.match(
    output,
    /^\$ printf '%s\\n' '\*\*\*' \| SERVICE_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/api svcctl login --email \S+ --password-stdin$/m,
  );
  assert.match(
    output,
    /^\$ SERVICE_BASE_URL=\S+ SERVICE_INGEST_TOKEN=\*\*\* SERVICE_HMAC_SECRET=\*\*\* svcctl event send --title 'Checkout latency above 2 s' --investigate /m,
  );
  assert.match(output, /^\$ SERVICE_ACCESS_TOKEN=\*\*\* svcctl mcp doctor --client cursor$/m);
  assert.match(output, /✓ tools\/list: 3 tools: whoami, list_events, get_event/);
  assert.match(output, /"investigate": true/);
  assert.match(output, /^ {2}6 events stored$/m);
  assert.match(output, /demo finished: all 8 steps passed/);
  // The sandbox's throwaway secrets (pw_…, ing_…, whsec_…) and the login token (a JWT) never show.
  assert.doesNotMatch(output, /\b(?:pw|ing|whsec)_[A-Za-z0-9_-]{10,}/);
  assert.doesNotMatch(output, /eyJ[\w-]+\.eyJ/);
  // Its temporary folder is gone.
  const work = /a local sandbox in (\S+)/.exec(output)?.[1];
  assert.ok(work && !existsSync(work), `left behind: ${work}`);
});
