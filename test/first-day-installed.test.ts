/**
 * Seeing what is installed: `mcp list` and `status` show every entry with its URL and mark the ones for
 * another deployment; `mcp get` prints the installed entry with its file, secrets masked; `mcp doctor`
 * without flags checks every entry, one block each, and counts them all. In-process, temp HOME.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { placeFile } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

// Ports 8 and 9 on loopback: nothing listens there, and nothing is sent to them but doctor's refused connections.
const A = 'http://127.0.0.1:9/api';
const B = 'http://127.0.0.1:8/api';

async function homeWithTwoEntries(): Promise<string> {
  const home = await tempDir('svcctl-installed-');
  for (const [client, scope, base] of [
    ['cursor', 'user', A],
    ['claude-code', 'project', B],
  ] as const) {
    const install = await runCli(
      ['mcp', 'install', '--client', client, '--scope', scope, '--mode', 'remote', '--base-url', base],
      { home },
    );
    assert.equal(install.code, 0, install.stderr);
  }
  return home;
}

describe('seeing what is installed', () => {
  it('mcp list and status: every entry, its URL, the other deployment marked and said', async () => {
    const home = await homeWithTwoEntries();
    const list = await runCli(['mcp', 'list'], { home, env: { SERVICE_BASE_URL: A } });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^CLIENT +SCOPE +NAME +MODE +URL +FILE$/m);
    assert.match(
      list.stdout,
      /^claude-code +project +service +remote +http:\/\/127\.0\.0\.1:8\/mcp \(other deployment\) /m,
    );
    assert.match(list.stdout, /^cursor +user +service +remote +http:\/\/127\.0\.0\.1:9\/mcp +\//m);
    assert.match(list.stderr, /1 of 2 entries points at another deployment than http:\/\/127\.0\.0\.1:9\/api/);
    const json = JSON.parse((await runCli(['--json', 'mcp', 'list'], { home, env: { SERVICE_BASE_URL: B } })).stdout);
    assert.deepEqual(
      json.map((e: { client: string; url: string; other_deployment: boolean }) => [
        e.client,
        e.url,
        e.other_deployment,
      ]),
      [
        ['claude-code', 'http://127.0.0.1:8/mcp', false],
        ['cursor', 'http://127.0.0.1:9/mcp', true],
      ],
    );
    const status = await runCli(['status'], { home, env: { SERVICE_BASE_URL: A } });
    assert.match(status.stdout, /clients: +2 entries/);
    assert.match(
      status.stdout,
      /claude-code \(project\) 'service' remote http:\/\/127\.0\.0\.1:8\/mcp \(other deployment\)/,
    );
  });

  it('an entry for another deployment with no service header (bearer) is still listed when that deployment is saved', async () => {
    const home = await tempDir('svcctl-installed-');
    await placeFile(
      home,
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: { ops: { url: 'http://127.0.0.1:8/mcp', headers: { Authorization: 'Bearer abc.def.ghi' } } },
      }),
    );
    assert.equal((await runCli(['deployment', 'add', 'old', B], { home })).code, 0);
    const list = await runCli(['--json', 'mcp', 'list'], { home, env: { SERVICE_BASE_URL: A } });
    assert.deepEqual(
      JSON.parse(list.stdout).map((e: { name: string; other_deployment: boolean }) => [e.name, e.other_deployment]),
      [['ops', true]],
    );
  });

  it('mcp get: the installed entry and its file, secrets masked, references kept', async () => {
    const home = await tempDir('svcctl-installed-');
    const file = await placeFile(
      home,
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          service: {
            url: 'http://127.0.0.1:9/mcp',
            headers: {
              Authorization: 'Bearer abc.def.ghi',
              'X-Service-Email': '${env:SERVICE_EMAIL}',
              'X-Service-Password': 'hunter2-secret',
            },
          },
        },
      }),
    );
    const get = await runCli(['mcp', 'get', '--client', 'cursor'], { home });
    assert.equal(get.code, 0, get.stderr);
    assert.ok(get.stderr.includes(file), get.stderr);
    const entry = JSON.parse(get.stdout);
    assert.deepEqual(entry, {
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer ***', 'X-Service-Email': '${env:SERVICE_EMAIL}', 'X-Service-Password': '***' },
    });
    const json = JSON.parse((await runCli(['--json', 'mcp', 'get', '--client', 'cursor'], { home })).stdout);
    assert.equal(json.file, file);
    assert.ok(!JSON.stringify(json).includes('hunter2') && !JSON.stringify(json).includes('abc.def'));
  });

  it('mcp get without flags, with two entries: it asks which to show (not which to check)', async () => {
    const home = await homeWithTwoEntries();
    const get = await runCli(['mcp', 'get'], { home });
    assert.equal(get.code, 2);
    assert.match(get.stderr, /^error: 2 entries match; get shows one:$/m);
    assert.match(get.stderr, /hint: choose one with --client, --scope and --name/);
  });

  it('mcp doctor without flags: every entry checked, one block each, all counted', async () => {
    const home = await homeWithTwoEntries();
    const env = { SERVICE_BASE_URL: A, SERVICE_EMAIL: 'ops@acme.example', SERVICE_PASSWORD: 'pw-secret' };
    const doctor = await runCli(['mcp', 'doctor', '--timeout', '2', '--trust-project'], { home, env });
    assert.equal(doctor.code, 8, doctor.stderr);
    assert.match(doctor.stderr, /Checking 'service' of claude-code \(project scope\)/);
    assert.match(doctor.stderr, /Checking 'service' of cursor \(user scope\)/);
    assert.match(doctor.stderr, /2 entries checked: 0 passed, 2 failed/);
    const json = JSON.parse(
      (await runCli(['--json', 'mcp', 'doctor', '--timeout', '2', '--trust-project'], { home, env })).stdout,
    );
    assert.deepEqual(json.map((r: { client: string }) => r.client).sort(), ['claude-code', 'cursor']);
  });
});
