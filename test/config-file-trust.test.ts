/**
 * config.toml chooses where credentials go, so svcctl trusts only a file it
 * can understand: a link there is neither read nor written through, a key of
 * the wrong type stops every command (exit 7) instead of being dropped, and an
 * edit changes only the lines it must (comments, unknown keys and order stay;
 * the previous content is kept as config.toml.bak). The built CLI, a temp HOME.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type RunResult } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

async function home(
  text?: string,
): Promise<{ home: string; file: string; run: (args: string[], input?: string) => Promise<RunResult> }> {
  const home = await tempDir('svcctl-config-trust-');
  const folder = join(home, '.config', 'svcctl');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, 'config.toml');
  if (text !== undefined) await writeFile(file, text, { mode: 0o600 });
  return { home, file, run: (args, input) => runCli(args, { home, ...(input !== undefined ? { input } : {}) }) };
}

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

describe('a config.toml that is a symbolic link', () => {
  it('is neither read nor written through: exit 7 naming the link and its target, the target and its folder untouched', async () => {
    const outside = await tempDir('svcctl-config-outside-');
    const target = join(outside, 'planted.toml');
    const planted = 'default = "evil"\n[deployments.evil]\nbase_url = "https://evil.example.com/api"\n';
    await writeFile(target, planted);
    const { file, run } = await home();
    await symlink(target, file);
    for (const args of [
      ['deployment', 'list'],
      ['token'],
      ['deployment', 'add', 'acme', 'https://acme.example.com/api'],
      ['deployment', 'use', 'evil'],
      ['deployment', 'remove', 'evil'],
    ]) {
      const result = await run(args);
      assert.equal(result.code, 7, `${args.join(' ')}: ${result.stderr}`);
      assert.match(
        result.stderr,
        /config\.toml is a symbolic link \(to .*planted\.toml\); svcctl neither reads nor writes config\.toml through a link/,
      );
      assert.match(result.stderr, /hint: replace the link with a copy of the file it points to/);
      assert.doesNotMatch(result.stdout, /evil\.example\.com/);
    }
    assert.equal(await readFile(target, 'utf8'), planted);
    assert.deepEqual(await readdir(outside), ['planted.toml'], 'no lock, temp or backup file next to the target');
    assert.ok((await lstat(file)).isSymbolicLink(), 'the link is left for the user to replace');
    assert.equal(await exists(`${file}.bak`), false);
  });
});

describe('a config.toml with a key of the wrong type', () => {
  const cases: { text: string; says: RegExp }[] = [
    {
      text: 'default = 5\n',
      says: /config\.toml: default must be a string \(the name of a deployment\), not a number/,
    },
    { text: 'deployments = "x"\n', says: /config\.toml: deployments must be a table of deployments, not a string/ },
    { text: 'deployments = ["a"]\n', says: /config\.toml: deployments must be a table of deployments, not an array/ },
    {
      text: '[deployments]\nacme = "https://acme.example.com/api"\n',
      says: /config\.toml: deployments\.acme must be a table with a base_url, not a string/,
    },
    {
      text: '[deployments."a b"]\nurl = "https://acme.example.com/api"\n',
      says: /config\.toml: deployments\."a b" has no base_url/,
    },
    {
      text: '[deployments.acme]\nbase_url = 443\n',
      says: /config\.toml: deployments\.acme\.base_url must be a string \(the API base URL\), not a number/,
    },
    { text: 'default = "acme"\n[deployments.acme\n', says: /config\.toml:2:\d+: not valid TOML/ },
  ];
  for (const { text, says } of cases) {
    it(`${JSON.stringify(text)}: exit 7 for every command that reads it, and no edit`, async () => {
      const { file, run } = await home(text);
      for (const args of [
        ['deployment', 'list'],
        ['--json', 'deployment', 'list'],
        ['token'],
        ['status'],
        ['deployment', 'add', 'other', 'https://other.example.com/api'],
        ['deployment', 'use', 'acme'],
      ]) {
        const result = await run(args);
        assert.equal(result.code, 7, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, says, args.join(' '));
        assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
      }
      assert.equal(await readFile(file, 'utf8'), text, 'the file is not rewritten');
      assert.equal(await exists(`${file}.bak`), false);
    });
  }
});

describe('edits of config.toml', () => {
  const mine = [
    '# my deployments, kept in git',
    'theme = "dark" # not svcctl\'s',
    '',
    '# staging first',
    '[deployments.staging]',
    'base_url = "https://staging.example.com/api" # the EU one',
    'owner = "team-a"',
    '',
    '[plugins.x]',
    'enabled = true',
    '',
  ].join('\n');

  it('add, use and remove change only their own lines; the previous content is config.toml.bak', async () => {
    const { file, run } = await home(mine);
    const add = await run(['deployment', 'add', 'prod', 'https://prod.example.com/api']);
    assert.equal(add.code, 0, add.stderr);
    const added = [
      '# my deployments, kept in git',
      'theme = "dark" # not svcctl\'s',
      'default = "prod"',
      '',
      '# staging first',
      '[deployments.staging]',
      'base_url = "https://staging.example.com/api" # the EU one',
      'owner = "team-a"',
      '',
      '[plugins.x]',
      'enabled = true',
      '',
      '[deployments.prod]',
      'base_url = "https://prod.example.com/api"',
      '',
    ].join('\n');
    assert.equal(await readFile(file, 'utf8'), added);
    assert.equal(await readFile(`${file}.bak`, 'utf8'), mine);
    assert.equal((await lstat(`${file}.bak`)).mode & 0o777, 0o600);

    const use = await run(['deployment', 'use', 'staging']);
    assert.equal(use.code, 0, use.stderr);
    assert.equal(await readFile(file, 'utf8'), added.replace('default = "prod"', 'default = "staging"'));
    assert.equal(await readFile(`${file}.bak`, 'utf8'), added);

    const remove = await run(['deployment', 'remove', 'staging']);
    assert.equal(remove.code, 0, remove.stderr);
    const removed = [
      '# my deployments, kept in git',
      'theme = "dark" # not svcctl\'s',
      '',
      '# staging first',
      '[plugins.x]',
      'enabled = true',
      '',
      '[deployments.prod]',
      'base_url = "https://prod.example.com/api"',
      '',
    ].join('\n');
    assert.equal(
      await readFile(file, 'utf8'),
      removed,
      "the table and the default that named it are gone; the rest stays (a comment above a table is the user's: kept)",
    );

    const list = await run(['--json', 'deployment', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(JSON.parse(list.stdout), [
      { name: 'prod', base_url: 'https://prod.example.com/api', default: false, logged_in: false },
    ]);
  });

  it('an edit that changes nothing writes nothing (no .bak)', async () => {
    const { file, run } = await home('default = "a"\n[deployments.a]\nbase_url = "https://a.example.com/api"\n');
    assert.equal((await run(['deployment', 'use', 'a'])).code, 0);
    assert.equal((await run(['deployment', 'add', 'a', 'https://a.example.com/api'])).code, 0);
    assert.equal(await exists(`${file}.bak`), false);
  });

  it('deployments written as an inline table: refused with the form svcctl edits, the file unchanged', async () => {
    const inline = 'deployments = { a = { base_url = "https://a.example.com/api" } }\n';
    const { file, run } = await home(inline);
    const list = await run(['deployment', 'list']);
    assert.equal(list.code, 0, 'it is read');
    const add = await run(['deployment', 'add', 'b', 'https://b.example.com/api']);
    assert.equal(add.code, 7, add.stderr);
    assert.match(add.stderr, /config\.toml: .*nothing was written/);
    assert.match(add.stderr, /hint: edit it by hand \(each deployment as its own \[deployments\."NAME"\] table/);
    assert.equal(await readFile(file, 'utf8'), inline);
  });

  describe('login --save', () => {
    let server: LoginServer;
    before(async () => {
      server = await startLoginServer();
    });
    after(() => server.close());

    it('adds its deployment to a file with comments and keeps them', async () => {
      const { file, run } = await home(mine);
      const login = await run(
        [
          'login',
          '--email',
          EMAIL,
          '--password-stdin',
          '--save',
          '--remember-deployment',
          '--base-url',
          server.baseUrl,
        ],
        `${PASSWORD}\n`,
      );
      assert.equal(login.code, 0, login.stderr);
      const name = new URL(server.baseUrl).host;
      const text = await readFile(file, 'utf8');
      assert.ok(
        text.startsWith(
          `# my deployments, kept in git\ntheme = "dark" # not svcctl's\ndefault = "${name}"\n\n# staging first\n`,
        ),
        text,
      );
      assert.ok(
        text.endsWith(`[plugins.x]\nenabled = true\n\n[deployments."${name}"]\nbase_url = "${server.baseUrl}"\n`),
        text,
      );
      assert.equal(await readFile(`${file}.bak`, 'utf8'), mine);
    });
  });
});

describe('many deployments', () => {
  it('an unknown name: the hint names the first 20 and counts the rest', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) lines.push(`[deployments.d${i}]`, `base_url = "https://h${i}.example.com/api"`);
    const { run } = await home(`${lines.join('\n')}\n`);
    const unknown = await run(['--deployment', 'nope', 'token']);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(
      unknown.stderr,
      /hint: saved deployments: d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15, d16, d17, d18, d19 and 10 more \(svcctl deployment list\)/,
    );
  });

  // One run: parsing 200,000 tables takes smol-toml about 10 s here, the rest of the command well under one.
  it('200,000 of them are listed without a stack overflow', { timeout: 120_000 }, async (t) => {
    const count = 200_000;
    const lines = ['default = "d0"'];
    for (let i = 0; i < count; i++) lines.push(`[deployments.d${i}]`, `base_url = "https://h${i}.example.com/api"`);
    const big = await home(`${lines.join('\n')}\n`);
    const run = (args: string[]): Promise<RunResult> => runCli(args, { home: big.home, timeoutMs: 100_000 });
    const started = Date.now();
    const list = await run(['deployment', 'list']);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(list.code, 0, list.stderr.slice(0, 2000));
    const rows = list.stdout.trimEnd().split('\n');
    assert.equal(rows.length, count);
    assert.match(rows[0]!, /^\* d0 +https:\/\/h0\.example\.com\/api$/);
    assert.match(rows.at(-1)!, new RegExp(`^  d${count - 1} +https://h${count - 1}\\.example\\.com/api$`));
    t.diagnostic(`200,000 deployments: deployment list took ${seconds.toFixed(1)} s`);
  });
});
