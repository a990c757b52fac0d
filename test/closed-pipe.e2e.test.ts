/**
 * A reader that closes stdout early (`svcctl … | head -c 0`): svcctl finishes
 * its work and exits with the work's code, quietly, as `git log | head` does.
 * The pipe is closed before svcctl writes anything: the test destroys its end
 * of the child's stdout as soon as the child starts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, cleanEnv } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

async function runWithClosedStdout(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number | null; stderr: string; home: string }> {
  const home = await tempDir('svcctl-pipe-');
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: home,
    env: cleanEnv(home, env),
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  child.stdout!.destroy();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (input !== undefined) child.stdin!.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr, home };
}

test('--version into a closed pipe: exit 0, nothing on stderr', async () => {
  for (const flag of ['--version', '-V']) {
    const { code, stderr } = await runWithClosedStdout([flag], {});
    assert.equal(stderr, '', flag);
    assert.equal(code, 0, flag);
  }
});

test('--version | head -c 0 in a shell: svcctl exits 0 with nothing on stderr', {
  skip: process.platform === 'win32' ? 'needs bash' : false,
}, async () => {
  const script = `"${process.execPath}" "${BIN}" --version | head -c 0; echo "svcctl=\${PIPESTATUS[0]}"`;
  const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await new Promise((resolve) => child.on('close', resolve));
  assert.equal(stderr, '');
  assert.equal(stdout, 'svcctl=0\n');
});

test('mcp install into a closed pipe: the file is written, exit 0, no error', async () => {
  const env = {
    SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
    SERVICE_EMAIL: 'me@example.com',
    SERVICE_PASSWORD: 'pw-123456',
  };
  const { code, stderr, home } = await runWithClosedStdout(
    ['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--json'],
    env,
  );
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /internal error|EPIPE|error:/);
  const written = JSON.parse(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8'));
  assert.equal(written.mcpServers.service.url, 'http://127.0.0.1:9/mcp');
});

test('a batch whose reader is gone still sends every event and exits 0', async () => {
  const server = await startRecordingServer();
  try {
    const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ title: `event ${i}` })).join('\n');
    const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' };
    const { code, stderr } = await runWithClosedStdout(['event', 'send', '--ndjson', '-'], env, `${lines}\n`);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /internal error|EPIPE/);
    const titles = new Set(server.requests.map((request) => JSON.parse(request.body.toString('utf8')).event.title));
    assert.equal(titles.size, 200, 'every event reached the server');
  } finally {
    await server.close();
  }
});

test('a batch with a failure still exits 9 when its reader is gone', async () => {
  const server = await startRecordingServer();
  try {
    const input = `${JSON.stringify({ title: 'good' })}\nnot json\n`;
    const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' };
    const { code, stderr } = await runWithClosedStdout(['event', 'send', '--ndjson', '-'], env, input);
    assert.equal(code, 9, stderr);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});
