/**
 * The first day, as a journey: where the README's sandbox block (run by test/first-day-deployments.test.ts and the
 * docs blocks) leaves a new user, in one HOME that already holds the user's own files: a sandbox (in-process, and
 * the variables `eval "$(svcctl dev --detach --format sh)"` exports) → `status` → `login --save` → `mcp install` for
 * Cursor in three modes (remote with `--auth bearer` as the README types it; local and proxy in two projects, no
 * `--auth`) → `mcp get`/`mcp list` → `mcp doctor` → `mcp uninstall --all` where each install ran → HOME as before.
 * What svcctl says is checked by another route each time: the sandbox's request log, the files on disk, the exit
 * codes of the README's table. The steps share one HOME and run in order.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { placeFile, type RunResult, runCli } from './helpers/cli.js';
import { type DevServer, startDev } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

/** The README's table. */
const EXIT = { ok: 0, checkFailed: 8 } as const;

/**
 * What svcctl may leave in HOME after `uninstall --all`: its config folder (config.toml, the saved login) and its
 * state folder (the sandbox's port and events, its records of what it wrote), with the folders above them that it
 * made for them. They are the user's settings, not MCP entries: `logout` and removing them are the user's call.
 */
const OWN_FOLDERS = ['.config/svcctl', '.local/state/svcctl'];
const isOwn = (path: string): boolean =>
  OWN_FOLDERS.some((own) => path === own || path.startsWith(`${own}/`) || own.startsWith(`${path}/`));

/** Every file, link and folder under HOME (paths with '/'): the bytes of each file, the target of each link. */
async function snapshot(home: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const name of await readdir(home, { recursive: true })) {
    const path = name.split(sep).join('/');
    const full = join(home, name);
    const stat = await lstat(full);
    if (stat.isDirectory()) tree.set(path, 'folder');
    else if (stat.isSymbolicLink()) tree.set(path, `link to ${await readlink(full)}`);
    else tree.set(path, `file ${(await readFile(full)).toString('base64')}`);
  }
  return tree;
}

/** The user's Cursor file before svcctl ever ran: a server of theirs, a comment, their layout. */
const USERS_CURSOR_FILE = `{
  // my servers
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }
  }
}
`;

async function usersHome(): Promise<string> {
  const home = await tempDir('svcctl-first-day-journey-');
  await placeFile(home, '.cursor/mcp.json', USERS_CURSOR_FILE);
  await placeFile(home, '.bashrc', 'export EDITOR=vim\n');
  await placeFile(home, '.config/git/config', '[user]\n\tname = New User\n');
  await placeFile(home, 'code/api/package.json', '{"name":"api"}\n');
  await mkdir(join(home, 'code', 'web'), { recursive: true });
  return home;
}

type McpServers = Record<string, Record<string, unknown>>;
const serversIn = async (file: string): Promise<McpServers> =>
  (parseJsonc(await readFile(file, 'utf8')) as { mcpServers: McpServers }).mcpServers;

/** The JWT's claims, read here on their own. */
const claimsOf = (jwt: string): { email: string; exp: number } =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));

interface ListRow {
  client: string;
  scope: string;
  file: string;
  name: string;
  mode: string;
  url: string;
}

describe('the first day: sandbox, status, install in three modes, get/list, doctor, uninstall --all, HOME as before', () => {
  let dev: DevServer;
  let home: string;
  let homeBefore: Map<string, string>;
  let env: Record<string, string>;
  const projects = { api: '', web: '' };
  const userFile = () => join(home, '.cursor', 'mcp.json');
  const projectFile = (project: string) => join(project, '.cursor', 'mcp.json');
  before(async () => {
    home = await usersHome();
    projects.api = join(home, 'code', 'api');
    projects.web = join(home, 'code', 'web');
    homeBefore = await snapshot(home);
    dev = await startDev();
    const [user] = dev.ready.users;
    const [webhook] = dev.ready.webhooks;
    // What `eval "$(svcctl dev --detach --format sh)"` exports (docs/sandbox.md).
    env = {
      SERVICE_BASE_URL: dev.ready.base_url,
      SERVICE_EMAIL: user!.email,
      SERVICE_PASSWORD: user!.password,
      SERVICE_INGEST_TOKEN: webhook!.ingest_token,
      SERVICE_HMAC_SECRET: webhook!.hmac_secret!,
    };
  });
  after(() => dev.stop());
  const svcctl = (args: string[], cwd = home): Promise<RunResult> => runCli(args, { home, env, cwd });
  /** The request log lines written while `during` ran. */
  const logDuring = async (during: () => Promise<RunResult>): Promise<[RunResult, string[]]> => {
    const before = dev.stderr().length;
    const result = await during();
    return [result, dev.stderr().slice(before).split('\n').filter(Boolean)];
  };

  it('status: the sandbox it points at, which it asked, and no login yet', async () => {
    const [status, log] = await logDuring(() => svcctl(['status']));
    assert.equal(status.code, EXIT.ok, status.stderr);
    assert.match(status.stdout, new RegExp(`^deployment: +${dev.ready.base_url} \\(from SERVICE_BASE_URL\\)$`, 'm'));
    assert.match(status.stdout, /^answers: +yes$/m);
    assert.ok(log.length > 0, '"answers: yes" after a request the sandbox logged');
    assert.match(status.stdout, /^login: +not logged in/m);
    await assert.rejects(readFile(join(home, '.config', 'svcctl', 'credentials.json')), { code: 'ENOENT' });
  });

  it('login --save: the token printed is the one saved, issued by the sandbox for its user; status says so', async () => {
    const [login, log] = await logDuring(() => svcctl(['login', '--save']));
    assert.equal(login.code, EXIT.ok, login.stderr);
    assert.ok(
      log.some((line) => / POST \/api\/v1\/user\/login 200 .*user demo@example\.com/.test(line)),
      log.join('\n'),
    );
    const saved = JSON.parse(await readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8'));
    const token = saved.tokens[dev.ready.base_url].access_token as string;
    assert.equal(login.stdout.trim(), token);
    const claims = claimsOf(token);
    assert.equal(claims.email, env.SERVICE_EMAIL);
    const status = JSON.parse((await svcctl(['--json', 'status'])).stdout);
    assert.equal(status.login.email, claims.email);
    assert.equal(status.login.expires_at, new Date(claims.exp * 1000).toISOString());
    assert.equal(status.deployment.answers, true);
  });

  it('mcp install in three modes: each file holds what the line says, the user’s server untouched', async () => {
    const remote = await svcctl(['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--auth', 'bearer']);
    assert.equal(remote.code, EXIT.ok, remote.stderr);
    assert.match(remote.stderr, new RegExp(`added 'service' in ${userFile()}\\n`));
    const users = await serversIn(userFile());
    assert.deepEqual(Object.keys(users), ['github', 'service']);
    assert.equal(users.service!.url, dev.ready.mcp_url);
    assert.deepEqual(users.service!.headers, { Authorization: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' });
    assert.match(remote.stderr, /SERVICE_ACCESS_TOKEN/, 'it says which variable the client needs');

    const local = await svcctl(['mcp', 'install', '--client', 'cursor', '--scope', 'project'], projects.api);
    assert.equal(local.code, EXIT.ok, local.stderr);
    assert.match(local.stderr, new RegExp(`created ${projectFile(projects.api)} with 'service'`));
    const localEntry = (await serversIn(projectFile(projects.api))).service!;
    assert.equal((localEntry.env as Record<string, string>).SERVICE_BASE_URL, dev.ready.base_url);
    assert.ok((localEntry.args as string[]).some((arg) => arg.startsWith('service-mcp-server')));

    const proxy = await svcctl(
      ['mcp', 'install', '--client', 'cursor', '--scope', 'project', '--mode', 'proxy'],
      projects.web,
    );
    assert.equal(proxy.code, EXIT.ok, proxy.stderr);
    assert.match(proxy.stderr, new RegExp(`created ${projectFile(projects.web)} with 'service'`));
    assert.ok(((await serversIn(projectFile(projects.web))).service!.args as string[]).includes(dev.ready.mcp_url));
    for (const result of [remote, local, proxy]) {
      assert.ok(!`${result.stdout}${result.stderr}`.includes(env.SERVICE_PASSWORD!), 'no password in the output');
    }
  });

  it('mcp list, mcp get and status agree with the files, from each folder', async () => {
    for (const [cwd, projectScope] of [
      [home, undefined],
      [projects.api, { file: projectFile(projects.api), mode: 'local', url: dev.ready.base_url }],
      [projects.web, { file: projectFile(projects.web), mode: 'proxy', url: dev.ready.mcp_url }],
    ] as const) {
      const list = await svcctl(['--json', 'mcp', 'list'], cwd);
      assert.equal(list.code, EXIT.ok, list.stderr);
      const rows = (JSON.parse(list.stdout) as ListRow[]).map(({ client, scope, file, name, mode, url }) => ({
        client,
        scope,
        file,
        name,
        mode,
        url,
      }));
      const expected: ListRow[] = [
        { client: 'cursor', scope: 'user', file: userFile(), name: 'service', mode: 'remote', url: dev.ready.mcp_url },
      ];
      if (projectScope) expected.push({ client: 'cursor', scope: 'project', name: 'service', ...projectScope });
      assert.deepEqual(rows, expected, `mcp list in ${cwd}`);
      const status = JSON.parse((await svcctl(['--json', 'status'], cwd)).stdout) as { clients: ListRow[] };
      assert.deepEqual(
        status.clients.map((entry) => entry.file),
        expected.map((entry) => entry.file),
        `status in ${cwd} names the same entries`,
      );
      for (const row of expected) {
        const get = await svcctl(['--json', 'mcp', 'get', '--client', 'cursor', '--scope', row.scope], cwd);
        assert.equal(get.code, EXIT.ok, get.stderr);
        const shown = JSON.parse(get.stdout);
        assert.equal(shown.file, row.file);
        assert.deepEqual(shown.entry, (await serversIn(row.file)).service, `mcp get shows the entry of ${row.file}`);
      }
    }
  });

  it('mcp doctor with the sandbox: a failing check says which and does not try the server; once fixed, the sandbox saw the token', async () => {
    const [unset, unsetLog] = await logDuring(() => svcctl(['mcp', 'doctor', '--client', 'cursor']));
    assert.equal(unset.code, EXIT.checkFailed, unset.stdout);
    assert.match(unset.stdout, /not set: SERVICE_ACCESS_TOKEN/);
    assert.deepEqual(
      unsetLog.filter((line) => / \/mcp /.test(line)),
      [],
      'initialize was not tried',
    );
    // What the install line said to do: export SERVICE_ACCESS_TOKEN="$(svcctl token)".
    const token = await svcctl(['token']);
    assert.equal(token.code, EXIT.ok, token.stderr);
    env.SERVICE_ACCESS_TOKEN = token.stdout.trim();
    const [remote, remoteLog] = await logDuring(() => svcctl(['mcp', 'doctor', '--client', 'cursor']));
    assert.equal(remote.code, EXIT.ok, remote.stdout);
    assert.match(remote.stderr, /all \d+ checks passed/);
    // The sandbox logs a bearer token by the first 12 hex digits of its SHA-256 (docs/sandbox.md).
    const tokenDigest = createHash('sha256').update(env.SERVICE_ACCESS_TOKEN).digest('hex').slice(0, 12);
    assert.ok(
      remoteLog.some(
        (line) =>
          line.includes(` POST /mcp 200 `) && line.includes(`demo@example.com (bearer token sha256:${tokenDigest})`),
      ),
      `the sandbox answered the exported token:\n${remoteLog.join('\n')}`,
    );
    const [proxy, proxyLog] = await logDuring(() =>
      svcctl(['mcp', 'doctor', '--client', 'cursor', '--scope', 'project'], projects.web),
    );
    assert.equal(proxy.code, EXIT.ok, proxy.stdout);
    assert.ok(
      proxyLog.some((line) => / POST \/mcp 200 .*demo@example\.com \(password\).* tools\/list/.test(line)),
      `the sandbox listed its tools for the proxy's headers:\n${proxyLog.join('\n')}`,
    );
  });

  it('mcp uninstall --all, where each install ran: every entry gone from the files, and mcp list says none', async () => {
    for (const cwd of [home, projects.api, projects.web]) {
      const uninstall = await svcctl(['mcp', 'uninstall', '--all'], cwd);
      assert.equal(uninstall.code, EXIT.ok, uninstall.stderr);
      assert.deepEqual(JSON.parse((await svcctl(['--json', 'mcp', 'list'], cwd)).stdout), [], `mcp list in ${cwd}`);
    }
    assert.equal(await readFile(userFile(), 'utf8'), USERS_CURSOR_FILE, 'the user’s Cursor file, byte for byte');
    for (const project of [projects.api, projects.web])
      await assert.rejects(readFile(projectFile(project)), { code: 'ENOENT' }, 'the file svcctl created is gone');
  });
  it('HOME as before: what svcctl created is gone (its own config and state folders aside), the user’s files byte-identical', async () => {
    const homeAfter = await snapshot(home);
    const left = [...homeAfter.keys()].filter((path) => !homeBefore.has(path) && !isOwn(path)).sort();
    assert.deepEqual(left, [], 'files and folders svcctl created that are still there');
    const changed = [...homeBefore.keys()].filter((path) => homeAfter.get(path) !== homeBefore.get(path)).sort();
    assert.deepEqual(changed, [], 'the user’s files and folders that changed or went');
  });
});
