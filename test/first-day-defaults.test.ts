/**
 * Defaults and advice a new user meets (what only a real terminal shows, `login --save` and `svcctl dev`'s
 * greeting, is in terminal.e2e.test.ts): `mcp install --mode remote` says which auth it wrote when none was asked for; a token-helper entry
 * installed while not logged in says so, and advises the keychain only where there is one; doctor tells an
 * npx that cannot fetch the package from a server that fails.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('defaults and advice', () => {
  let server: LoginServer;
  before(async () => {
    server = await startLoginServer();
  });
  after(async () => {
    await server.close();
  });

  it('mcp install --mode remote without --auth says the password headers were written', async () => {
    const install = await runCli([
      'mcp',
      'install',
      '--client',
      'cursor',
      '--mode',
      'remote',
      '--base-url',
      server.baseUrl,
      '--dry-run',
    ]);
    assert.equal(install.code, 0, install.stderr);
    assert.match(
      install.stderr,
      /Auth: password headers \(no --auth given, and svcctl holds no unexpired login for .*\): the client sends the email and password with every request/,
    );
  });

  /** `mcp doctor` of a local entry, with an npx that answers as npm 10 does with `npmLines` on stderr. */
  async function doctorWithNpx(npmLines: string[]): Promise<{ code: number | null; stdout: string; all: string }> {
    const home = await tempDir('svcctl-defaults-');
    const bin = join(home, 'bin');
    await mkdir(bin);
    const npx = join(bin, 'npx');
    await writeFile(npx, `#!/bin/sh\n${npmLines.map((line) => `echo "${line}" >&2\n`).join('')}exit 1\n`);
    await chmod(npx, 0o755);
    const file = join(home, 'mcp.json');
    const env = { SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD, SERVICE_BASE_URL: server.baseUrl };
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { service: { command: 'npx', args: ['-y', 'service-mcp-server@latest'], env } } }),
    );
    const doctor = await runCli(['mcp', 'doctor', '--config', file, '--trust-project', '--timeout', '10'], {
      home,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    return { code: doctor.code, stdout: doctor.stdout, all: doctor.stdout + doctor.stderr };
  }

  it('mcp doctor says plainly when the local-mode package cannot be fetched (offline), apart from a server that fails', async () => {
    // npm 10's words for a DNS failure.
    const doctor = await doctorWithNpx([
      'npm error code ENOTFOUND',
      'npm error network request to https://registry.npmjs.org/service-mcp-server failed',
    ]);
    assert.equal(doctor.code, 8, doctor.all);
    assert.match(
      doctor.stdout,
      /✗ initialize: service-mcp-server@latest cannot be fetched \(offline, or the npm registry is unreachable\)/,
    );
  });

  it('mcp doctor on a local entry whose package the registry lacks: what the package is, how --package names it, the way to try the sandbox', async () => {
    // npm 10's E404 lines for a package the registry does not have.
    const doctor = await doctorWithNpx([
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/service-mcp-server - Not found',
    ]);
    assert.equal(doctor.code, 8, doctor.all);
    assert.match(doctor.stdout, /✗ initialize: service-mcp-server@latest is not in the npm registry/);
    assert.match(doctor.all, /the service's MCP server package that a local entry runs/);
    assert.match(doctor.all, /it is kept in the entry's args\): svcctl mcp install --package <spec> --force/);
    assert.match(doctor.all, /To try a client against the sandbox without it: --mode remote/);
  });

  it('a token-helper entry while not logged in: says so; the keychain is advised only where there is one', async () => {
    const install = await runCli([
      'mcp',
      'install',
      '--client',
      'gemini',
      '--mode',
      'proxy',
      '--auth',
      'bearer',
      '--token',
      'helper',
      '--base-url',
      server.baseUrl,
    ]);
    assert.equal(install.code, 0, install.stderr);
    assert.match(
      install.stderr,
      /You are not logged in: until you run `svcctl login --save`, the entry has no token to send/,
    );
    if (/has no OS keychain/.test(install.stderr))
      assert.ok(!install.stderr.includes('--remember-password'), install.stderr);
    else assert.match(install.stderr, /svcctl login --save --remember-password/);
  });
});
