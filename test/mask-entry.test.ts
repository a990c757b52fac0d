/**
 * The one masking of entries and URLs as svcctl shows them (issue 38.4, src/redaction/mask-entry.ts): by value (the
 * saved token under a header not named as a secret) and by name (query keys, headers with Cookie, arguments,
 * variables), in `mcp get`, `mcp list`, `status`, `mcp doctor` and `mcp command`; references such as ${VAR} and
 * what names no secret are kept.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';
import { maskArgs, maskEntry, maskUrl } from '../src/redaction/mask-entry.js';
import { createRedactor } from '../src/redaction/redaction.js';
import { shownBody } from '../src/auth/login-request.js';

const BASE_URL = 'http://127.0.0.1:9/api';
const SAVED = 'saved-tok-4c5d6e7f8a';
const SECRETS = {
  apiKey: 'ak-q-1234567',
  queryToken: 'qtok-7654321',
  cookie: 'cookie-abcdef123',
  password: 'pw-X-123456',
  argKey: 'ak-Y-123456',
  argToken: 'tk-Z-123456',
  dbPassword: 'dbpass-123456',
};
const URL_WITH_SECRETS = `http://127.0.0.1:9/mcp?api_key=${SECRETS.apiKey}&token=${SECRETS.queryToken}&workspace=w1`;
const MASKED_URL = 'http://127.0.0.1:9/mcp?api_key=***&token=***&workspace=w1';

const remoteEntry = {
  type: 'http',
  url: URL_WITH_SECRETS,
  headers: {
    'X-Foo': `Bearer ${SAVED}`,
    Cookie: `session=${SECRETS.cookie}`,
    'X-Service-Email': 'me@example.com',
    Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}',
  },
};
const localEntry = {
  command: 'npx',
  args: [
    '-y',
    'some-server',
    '--password',
    SECRETS.password,
    `--api-key=${SECRETS.argKey}`,
    '--token',
    SECRETS.argToken,
    '--verbose',
  ],
  env: { DB_PASSWORD: SECRETS.dbPassword, SERVICE_EMAIL: 'me@example.com', HOME_DIR: '/srv/x' },
};

function assertNoSecret(text: string, where: string): void {
  for (const secret of [SAVED, ...Object.values(SECRETS)]) assert.ok(!text.includes(secret), `${where}: ${secret}`);
}

async function homeWithEntries(): Promise<string> {
  const home = await tempDir('svcctl-home-');
  await saveToken(home, BASE_URL, SAVED);
  await writeFile(
    join(home, '.claude.json'),
    JSON.stringify({ mcpServers: { service: remoteEntry, other: localEntry } }),
  );
  return home;
}

const env = { SERVICE_BASE_URL: BASE_URL };

describe('mcp get: secrets masked, by value and by name', () => {
  it('a remote entry: the saved token under X-Foo, Cookie, the query secrets; references and the rest kept', async () => {
    const home = await homeWithEntries();
    for (const json of [false, true]) {
      const result = await runCli([...(json ? ['--json'] : []), 'mcp', 'get', '--client', 'claude-code'], {
        home,
        env,
      });
      assert.equal(result.code, 0, result.stderr);
      assertNoSecret(result.stdout + result.stderr, 'mcp get');
      const shown = JSON.parse(result.stdout) as { entry?: unknown };
      assert.deepEqual(json ? shown.entry : shown, {
        type: 'http',
        url: MASKED_URL,
        headers: {
          'X-Foo': 'Bearer ***',
          Cookie: '***',
          'X-Service-Email': 'me@example.com',
          Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}',
        },
      });
    }
  });

  it('a local entry: --password X, --api-key=X, --token X and a secret variable; other arguments kept', async () => {
    const home = await homeWithEntries();
    const result = await runCli(['mcp', 'get', '--client', 'claude-code', '--name', 'other'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    assertNoSecret(result.stdout + result.stderr, 'mcp get');
    assert.deepEqual(JSON.parse(result.stdout), {
      command: 'npx',
      args: ['-y', 'some-server', '--password', '***', '--api-key=***', '--token', '***', '--verbose'],
      env: { DB_PASSWORD: '***', SERVICE_EMAIL: 'me@example.com', HOME_DIR: '/srv/x' },
    });
  });
});

describe('mcp list and status: the URL of an entry masked, also in --json', () => {
  it('mcp list (text and --json) and status --json', async () => {
    const home = await homeWithEntries();
    const text = await runCli(['mcp', 'list'], { home, env });
    assert.equal(text.code, 0, text.stderr);
    assertNoSecret(text.stdout + text.stderr, 'mcp list');
    assert.ok(text.stdout.includes(MASKED_URL), text.stdout);
    const json = await runCli(['--json', 'mcp', 'list'], { home, env });
    assert.deepEqual(
      (JSON.parse(json.stdout) as Array<{ url: string }>).map((entry) => entry.url),
      [MASKED_URL, null],
      'the local entry (SERVICE_EMAIL) has no URL',
    );
    const status = await runCli(['--json', 'status'], { home, env });
    assertNoSecret(status.stdout + status.stderr, 'status --json');
    assert.deepEqual(
      (JSON.parse(status.stdout) as { clients: Array<{ url: string }> }).clients.map((entry) => entry.url),
      [MASKED_URL, null],
    );
  });
});

describe("mcp doctor: a project's entry it will not run is named masked", () => {
  it('the command line and the URL in the refusal', async () => {
    const home = await tempDir('svcctl-home-');
    const project = join(home, 'project');
    await mkdir(project);
    const config = join(project, '.mcp.json');
    await writeFile(config, JSON.stringify({ mcpServers: { local: localEntry, remote: remoteEntry } }));
    for (const name of ['local', 'remote']) {
      const result = await runCli(['mcp', 'doctor', '--config', config, '--format', 'mcpServers', '--name', name], {
        home,
        cwd: project,
        env,
      });
      assert.equal(result.code, 8, result.stderr);
      assertNoSecret(result.stdout + result.stderr, `doctor ${name}`);
      assert.match(
        result.stdout,
        name === 'local'
          ? /`npx -y some-server --password '\*\*\*' '--api-key=\*\*\*' --token '\*\*\*' --verbose`/
          : /api_key=\*\*\*&token=\*\*\*/,
      );
    }
  });
});

describe('mcp command: the line built from the masked entry unless --show-secrets', () => {
  it('a URL with a key in its query', async () => {
    const url = `http://127.0.0.1:9/mcp?api_key=${SECRETS.apiKey}&x=1`;
    const args = ['mcp', 'command', '--client', 'claude-code', '--mode', 'remote', '--mcp-url', url];
    const masked = await runCli(args, { env });
    assert.equal(masked.code, 0, masked.stderr);
    assertNoSecret(masked.stdout + masked.stderr, 'mcp command');
    assert.ok(masked.stdout.includes('"url":"http://127.0.0.1:9/mcp?api_key=***&x=1"'), masked.stdout);
    const shown = await runCli([...args, '--show-secrets'], { env });
    assert.ok(shown.stdout.includes(url), shown.stdout);
  });
});

describe('the rules', () => {
  it('URLs: userinfo password, secret query keys (also sig, code), the fragment; references kept', () => {
    assert.equal(maskUrl('https://u:pw-1234@h/p?sig=abc&v=1#frag'), 'https://u:***@h/p?sig=***&v=1#***');
    assert.equal(
      maskUrl('https://h/p?code=c0de&state=s&access_token=${TOKEN}'),
      'https://h/p?code=***&state=s&access_token=${TOKEN}',
    );
    assert.equal(maskUrl('https://h/p?a%5Fkey=1&x'), 'https://h/p?a%5Fkey=***&x');
    assert.equal(maskUrl('https://h/p'), 'https://h/p');
  });

  it('arguments: a flag that points to a file, a variable or a method is no secret; the next flag is no value', () => {
    assert.deepEqual(
      maskArgs(['--password-file', 'pw.txt', '--token-env', 'TOK', '--auth', 'bearer', '--password', '--next', 'x']),
      ['--password-file', 'pw.txt', '--token-env', 'TOK', '--auth', 'bearer', '--password', '--next', 'x'],
    );
    assert.deepEqual(maskArgs(['--header', 'Authorization: Bearer abc123', 'API_KEY=k-123', 'PATH=/bin']), [
      '--header',
      'Authorization: Bearer ***',
      'API_KEY=***',
      'PATH=/bin',
    ]);
  });
});

describe("a login answer's body, as svcctl shows it", () => {
  it('masks as `mcp get` does: secret keys, a secret in a URL, the scheme kept', () => {
    const answer = {
      error: 'refused',
      access_token: 'abc123456789',
      token_type: 'Bearer',
      retry: 'https://login.example/cb?state=1&code=XYZ789SECRET',
    };
    const shown = JSON.parse(shownBody(JSON.stringify(answer), createRedactor([]))) as Record<string, string>;
    assert.deepEqual(shown, maskEntry(answer, createRedactor([])));
    assert.equal(shown.retry, 'https://login.example/cb?state=1&code=***');
    assert.equal(shown.access_token, '***');
    assert.equal(shown.error, 'refused');
  });
});
