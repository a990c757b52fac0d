/**
 * What `event run` puts in the event of the command it wraps (issue 38.6): with --show-args the arguments are masked
 * by value (the HMAC secret), by flag name (--password=…, --api-key …) and by URL password; a secret in the command's
 * own path is hidden in the title and the label, and the message keeps the rest of that path; the working folder
 * (PWD, OLDPWD) is a path, not a secret.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

const TOKEN = 'tok-mask-5d2e';
const HMAC = 'whsec_test123456';
const PASSWORD = 'hunter2hunter2';
const API_KEY = 'ak-77aa99bb';
const DB_PASSWORD = 'dbpw12345';

interface SentEvent {
  title: string;
  payload: { message: string; labels: Record<string, string> };
}

function eventOf(body: Buffer): SentEvent {
  const event = JSON.parse(body.toString('utf8')).event;
  return { ...event, payload: JSON.parse(event.payload) };
}

describe('event run: what the event holds of the command line', () => {
  const fixture = useEventFixture(TOKEN);
  const env = () => ({ ...fixture.env, SERVICE_HMAC_SECRET: HMAC });

  it('--show-args: arguments masked by value, by flag name and by URL password; the rest kept', async () => {
    const before = fixture.server.requests.length;
    const args = [
      'sh',
      '-c',
      'exit 4',
      HMAC,
      `--password=${PASSWORD}`,
      '--api-key',
      API_KEY,
      `postgres://app:${DB_PASSWORD}@db/x`,
      '--verbose',
    ];
    const result = await runCli(['event', 'run', '--show-args', '--', ...args], { env: env() });
    assert.equal(result.code, 4, result.stderr);
    const sent = fixture.server.requests.slice(before);
    assert.equal(sent.length, 1);
    const body = sent[0]!.body.toString('utf8');
    for (const secret of [HMAC, PASSWORD, API_KEY, DB_PASSWORD]) assert.ok(!body.includes(secret), `${secret} sent`);
    assert.equal(
      eventOf(sent[0]!.body).payload.labels.command,
      'sh -c exit 4 *** --password=*** --api-key *** postgres://app:***@db/x --verbose',
    );
  });

  it("a secret in the command's own path: hidden in the title and label, the message keeps the path around it", async () => {
    const folder = join(fixture.dir, 'jobs');
    await mkdir(folder, { recursive: true });
    const command = join(folder, HMAC, 'run.sh');
    const before = fixture.server.requests.length;
    const result = await runCli(['event', 'run', '--', command], { env: { ...env(), PWD: folder }, cwd: folder });
    assert.equal(result.code, 127, result.stderr);
    const event = eventOf(fixture.server.requests[before]!.body);
    const shown = join(folder, '***', 'run.sh');
    assert.equal(event.title, `${shown} could not start (command not found)`);
    assert.equal(event.payload.labels.command, shown);
    assert.equal(event.payload.message, `spawn ${shown} ENOENT`);
  });

  it('PWD and OLDPWD are paths: a spool folder under them is named in full', async () => {
    const spool = join(fixture.dir, 'spool-pwd');
    const env = {
      SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
      SERVICE_INGEST_TOKEN: TOKEN,
      SERVICE_HMAC_SECRET: HMAC,
      PWD: fixture.dir,
      OLDPWD: fixture.dir,
    };
    const result = await runCli(['event', 'run', '--spool', spool, '--retries', '0', '--', 'sh', '-c', 'exit 1'], {
      env,
      cwd: fixture.dir,
    });
    assert.equal(result.code, 1, result.stderr);
    assert.ok(result.stderr.includes(spool), result.stderr);
  });
});
