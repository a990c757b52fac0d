/** The safety rules of `svcctl mcp install` (contract section 4), through the built CLI in a temp HOME. */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, placeFile } from './helpers/cli.js';
import { fixture } from './helpers/mcp-files.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
let home: string;
before(async () => {
  home = await tempDir('svcctl-mcp-safety-');
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

const place = (path: string, text: string): Promise<string> => placeFile(home, path, text);

const run = (args: string[], env: Record<string, string> = ENV) => runCli(['mcp', ...args], { home, env });

describe('mcp install safety', () => {
  it('a file that does not parse is never written: exit 7 with line:column', async () => {
    const broken = await fixture('broken.json');
    const file = await place('.cursor/mcp.json', broken);
    const result = await run(['install', '--client', 'cursor']);
    assert.equal(result.code, 7);
    assert.match(result.stderr, /mcp\.json:5:7: the file does not parse \(a comma is missing\); nothing was written/);
    assert.equal(await readFile(file, 'utf8'), broken);
    assert.deepEqual(await readdir(dirname(file)), ['mcp.json']);
  });

  it('re-running the same install says "unchanged" and does not rewrite the file', async () => {
    const file = join(home, '.gemini', 'settings.json');
    assert.equal((await run(['install', '--client', 'gemini'])).code, 0);
    const first = await stat(file);
    const again = await run(['install', '--client', 'gemini']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /is unchanged/);
    const second = await stat(file);
    assert.equal(second.mtimeMs, first.mtimeMs);
    assert.equal(second.ino, first.ino, 'not replaced by a rename either');
  });

  it('a differing entry: exit 7 with a diff and no write; --force replaces it whole (no stale keys)', async () => {
    const text =
      '{\n  "mcpServers": {\n    "service": {\n      "url": "https://old.example.com/mcp",\n      "stale": true\n    }\n  }\n}\n';
    const file = await place('.codeium/windsurf/mcp_config.json', text);
    const refused = await run(['install', '--client', 'windsurf']);
    assert.equal(refused.code, 7);
    assert.match(refused.stderr, /already has a different 'service' entry/);
    assert.match(refused.stderr, /^- {6}"stale": true$/m);
    assert.match(refused.stderr, /--force/);
    assert.equal(await readFile(file, 'utf8'), text);

    const forced = await run(['install', '--client', 'windsurf', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /replaced 'service'/);
    const entry = JSON.parse(await readFile(file, 'utf8')).mcpServers.service;
    assert.equal(entry.stale, undefined);
    assert.equal(entry.url, undefined);
    assert.equal(entry.command, 'npx');
    assert.equal(await readFile(`${file}.bak`, 'utf8'), text);
  });

  it('a literal bearer token: the note says what a renewal takes, and that advice works (--force, not a bare re-run)', async () => {
    const config = join(home, 'bearer-literal', 'config.toml');
    const args = [
      'install',
      '--client',
      'codex',
      '--config',
      config,
      '--mode',
      'remote',
      '--auth',
      'bearer',
      '--secrets',
      'literal',
    ];
    const first = await run(args, { ...ENV, SERVICE_ACCESS_TOKEN: 'tok-old-1' });
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stderr,
      /run `svcctl login --save` again, then re-run `svcctl mcp install` with the same flags plus --force/,
    );
    assert.ok(!first.stderr.includes('tok-old-1'));
    const bare = await run(args, { ...ENV, SERVICE_ACCESS_TOKEN: 'tok-new-2' });
    assert.equal(bare.code, 7, 'without --force a renewed token is a conflicting entry');
    assert.match(await readFile(config, 'utf8'), /tok-old-1/);
    const forced = await run([...args, '--force'], { ...ENV, SERVICE_ACCESS_TOKEN: 'tok-new-2' });
    assert.equal(forced.code, 0, forced.stderr);
    const text = await readFile(config, 'utf8');
    assert.match(text, /tok-new-2/);
    assert.ok(!text.includes('tok-old-1'));
    const byReference = await run(['print', '--client', 'codex', '--mode', 'remote', '--auth', 'bearer']);
    assert.match(byReference.stderr, /then `export SERVICE_ACCESS_TOKEN="\$\(svcctl token\)"` and restart the client/);
  });

  it('--dry-run prints the unified diff on stdout and changes nothing', async () => {
    const original = await fixture('codex-config.toml');
    const file = await place('dry/.codex/config.toml', original);
    const result = await runCli(['mcp', 'install', '--client', 'codex', '--dry-run'], {
      home,
      env: { ...ENV, CODEX_HOME: join(home, 'dry', '.codex') },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(`^--- ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\tcurrent\\n\\+\\+\\+ `),
    );
    assert.match(result.stdout, /^\+\[mcp_servers\.service\]$/m);
    assert.match(result.stderr, /would add 'service'/);
    assert.equal(await readFile(file, 'utf8'), original);
    assert.deepEqual(await readdir(dirname(file)), ['config.toml']);
  });

  it("--dry-run shows variable names Codex reads as names; literal secrets and other servers' credentials stay hidden", async () => {
    const codexHome = join(home, 'names', '.codex');
    const other = [
      '[mcp_servers.other]',
      'url = "https://other.example.com/mcp"',
      'bearer_token_env_var = "OTHER_TOKEN"',
      '',
      '[mcp_servers.other.env_http_headers]',
      'X-Other-Password = "OTHER_PASSWORD"',
      '[mcp_servers.other.http_headers]',
      'X-Api-Token = "tok-of-other-server"',
      '',
    ].join('\n');
    const file = await place('names/.codex/config.toml', other);
    const env = { ...ENV, CODEX_HOME: codexHome };
    const password = await runCli(['mcp', 'install', '--client', 'codex', '--mode', 'remote', '--dry-run'], {
      home,
      env,
    });
    assert.equal(password.code, 0, password.stderr);
    assert.match(
      password.stdout,
      /^\+X-Service-Password = "SERVICE_PASSWORD"$/m,
      'the file gets the name SERVICE_PASSWORD',
    );
    assert.match(password.stdout, /^\+X-Service-Email = "SERVICE_EMAIL"$/m);
    assert.match(password.stdout, /^ X-Api-Token = "\*\*\*"$/m, "another server's literal header stays hidden");
    assert.match(password.stdout, /^ X-Other-Password = "OTHER_PASSWORD"$/m);
    assert.ok(!password.stdout.includes('tok-of-other-server'));
    const bearer = await runCli(
      ['mcp', 'install', '--client', 'codex', '--mode', 'remote', '--auth', 'bearer', '--dry-run', '--force'],
      { home, env },
    );
    assert.match(bearer.stdout, /^\+bearer_token_env_var = "SERVICE_ACCESS_TOKEN"$/m);
    const literal = await runCli(
      ['mcp', 'install', '--client', 'codex', '--mode', 'remote', '--secrets', 'literal', '--dry-run'],
      {
        home,
        env: { ...env, SERVICE_EMAIL: 'a@b.c', SERVICE_PASSWORD: 'SERVICE_LOOKALIKE' },
      },
    );
    assert.equal(literal.code, 0, literal.stderr);
    assert.match(
      literal.stdout,
      /^\+X-Service-Password = "\*\*\*"$/m,
      'a literal password is hidden even when it looks like a name',
    );
    assert.ok(!literal.stdout.includes('SERVICE_LOOKALIKE'));
    assert.equal(await readFile(file, 'utf8'), other);
  });

  it('--dry-run never shows a literal secret holding a backslash and a quote, as written or escaped', async () => {
    const token = 'ab\\cd"ef';
    const env = { ...ENV, SERVICE_ACCESS_TOKEN: token, CODEX_HOME: join(home, 'escaped', '.codex') };
    const args = ['--mode', 'proxy', '--auth', 'bearer', '--secrets', 'literal', '--dry-run'];
    await mkdir(join(home, 'escaped'), { recursive: true });
    for (const client of ['cursor', 'codex']) {
      const result = await runCli(['mcp', 'install', '--client', client, ...args], {
        home: join(home, 'escaped'),
        env,
      });
      assert.equal(result.code, 0, result.stderr);
      // JSON and TOML both write the token as ab\\cd\"ef: the diff shows *** in its place.
      assert.match(result.stdout, /^\+.*SERVICE_AUTH_HEADER.*Bearer \*\*\*/m, `${client}: ${result.stdout}`);
      for (const shown of [result.stdout, result.stderr]) {
        assert.ok(!shown.includes('ab\\cd'), `${client}: the token as written`);
        assert.ok(!shown.includes('ab\\\\cd'), `${client}: the token escaped`);
        assert.ok(!shown.includes('cd\\"ef') && !shown.includes('cd"ef'), `${client}: the end of the token`);
      }
    }
  });

  it('--no-backup keeps no .bak', async () => {
    const file = await place('.config/zed/settings.json', '{\n  "theme": "x"\n}\n');
    assert.equal(
      (
        await run(['install', '--client', 'zed', '--secrets', 'literal', '--no-backup'], {
          ...ENV,
          SERVICE_EMAIL: 'a@b.c',
          SERVICE_PASSWORD: 'pw',
        })
      ).code,
      0,
    );
    await assert.rejects(stat(`${file}.bak`), { code: 'ENOENT' });
  });

  it('without --client and without a terminal: exit 2 naming --client', async () => {
    const result = await run(['install']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--client/);
  });
});
