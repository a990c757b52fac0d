/**
 * svcctl at a real terminal (util-linux `script` gives it a pseudo-terminal): what only a terminal shows.
 * A batch's progress line (stderr) is cleared before each block of ids (stdout), so every id is on a line of its
 * own as the terminal draws it; `TOKEN=$(svcctl login)` prompts on the terminal, masks the password and leaves
 * only the token on stdout; colours appear on a terminal unless NO_COLOR or --no-color. The text itself (progress,
 * colours off a terminal) is tested in-process in terminal-text.test.ts.
 */
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN } from './helpers/cli.js';
import { EMAIL, type LoginServer, PASSWORD, startLoginServer } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';

const skip = !hasScript && 'util-linux script is not installed';
const svcctl = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;
/** Only a hung command meets it: every test waits for what the terminal shows or for the end. */
const KILL_AFTER_MS = 60_000;

describe('svcctl at a terminal', { skip, concurrency: true }, () => {
  describe('a batch of 20 000 events with stdout and stderr on one terminal', () => {
    const COUNT = 20_000;
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    // As a terminal draws a line: what follows its last carriage return, without the erase-line sequence.
    const rendered = (line: string): string =>
      (line.replace(/\r$/, '').split('\r').at(-1) ?? '').replaceAll('\x1b[2K', '').replace(/\x1b\[[0-9;]*m/g, '');

    it('every id on a clean line; a file input shows its share done and the time left', {
      timeout: 180_000,
    }, async () => {
      const server = await startRecordingServer();
      try {
        const home = await tempDir('svcctl-progress-');
        const file = join(home, 'events.ndjson');
        const lines = Array.from({ length: COUNT }, (_, i) => JSON.stringify({ title: `event ${i}` }));
        await writeFile(file, `${lines.join('\n')}\n`);
        const command = `${svcctl} event send --ndjson ${shellQuote(file)} --concurrency 16`;
        const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234', NO_COLOR: '1' };
        // A loaded machine sends slower, never differently: the end is waited for, however long it takes.
        const session = underTerminal(command, home, env, 170_000);
        assert.equal(await session.done, 0, session.screen().slice(-2000));
        const shown = session.screen().split('\n').map(rendered);
        const ids = shown.filter((line) => UUID.test(line.trim()));
        assert.equal(ids.length, COUNT, 'every id on a line of its own');
        const mixed = shown.filter((line) => /\/s/.test(line) && /[0-9a-f]{8}-[0-9a-f]{4}/.test(line));
        assert.deepEqual(mixed.slice(0, 3), [], 'no progress text runs into an id');
        assert.equal(server.requests.length, COUNT);
        assert.match(
          session.screen(),
          /sent \d+ · failed 0 · \d+\/s · \d+% of 0\.\d MB · \d+:\d\d left/,
          'a file input shows its share done and the time left',
        );
      } finally {
        await server.close();
      }
    });
  });

  describe('svcctl login', { concurrency: true }, () => {
    // A server per test: each test reads the last login and token of its own.
    const servers: LoginServer[] = [];
    const loginServer = async (): Promise<LoginServer> => {
      const server = await startLoginServer({ ttlSeconds: 3570 });
      servers.push(server);
      return server;
    };
    after(() => Promise.all(servers.map((server) => server.close())));

    it('TOKEN=$(svcctl login): prompts on the terminal, password masked, stdout is exactly the token', async () => {
      const server = await loginServer();
      const home = await tempDir();
      const captured = join(home, 'captured.txt');
      const command = `TOKEN=$(${svcctl} login); status=$?; printf '%s' "$TOKEN" > captured.txt; exit $status`;
      const session = underTerminal(command, home, { SERVICE_BASE_URL: server.baseUrl }, KILL_AFTER_MS);
      await session.waitFor(/Email/);
      session.type(`${EMAIL}\r`);
      await session.waitFor(/Password/);
      session.type(`${PASSWORD}\r`);
      assert.equal(await session.done, 0, session.screen());

      const token = server.issued.at(-1)!;
      assert.deepEqual(server.logins().at(-1), { email: EMAIL, password: PASSWORD });
      // $(…) drops the trailing newline; the file holds what the shell captured: the token alone.
      assert.equal(await readFile(captured, 'utf8'), token);
      const screen = session.screen();
      assert.match(screen, /Logged in to http:\/\/127\.0\.0\.1:\d+\/api as ops@acme\.example/);
      assert.match(screen, /The token expires in 59 minutes \(\d{4}-\d\d-\d\dT/);
      assert.match(screen, /Password \*+/, 'the password is shown as *');
      assert.ok(!screen.includes(PASSWORD), 'the typed password never reaches the terminal');
      assert.ok(!screen.includes(token), 'the token went to stdout only, not to the terminal');
      assert.ok(!screen.includes('\x1b[3'), 'NO_COLOR: no colours');
    });

    it('svcctl login --json: only the prompt for what is missing; stdout holds one JSON document', async () => {
      const server = await loginServer();
      const home = await tempDir();
      const command = `${svcctl} --json login > out.json`;
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL };
      const session = underTerminal(command, home, env, KILL_AFTER_MS);
      await session.waitFor(/Password/);
      session.type(`${PASSWORD}\r`);
      assert.equal(await session.done, 0, session.screen());
      assert.ok(!/Email/.test(session.screen()), 'the email came from SERVICE_EMAIL: no email prompt');
      const parsed = JSON.parse(await readFile(join(home, 'out.json'), 'utf8'));
      assert.equal(parsed.access_token, server.issued.at(-1));
      assert.equal(parsed.email, EMAIL);
    });

    it('Ctrl+C in the password prompt ends with exit 130, nothing on stdout and no file written', async () => {
      const server = await loginServer();
      const home = await tempDir();
      const command = `${svcctl} login --save --email ${EMAIL} > out.txt`;
      const session = underTerminal(command, home, { SERVICE_BASE_URL: server.baseUrl }, KILL_AFTER_MS);
      await session.waitFor(/Password/);
      session.type('half');
      session.type('\x03');
      assert.equal(await session.done, 130, session.screen());
      assert.match(session.screen(), /interrupted/);
      assert.ok(!/at \S+ \(.*:\d+:\d+\)/.test(session.screen()), 'no stack trace');
      assert.equal(await readFile(join(home, 'out.txt'), 'utf8'), '');
      assert.equal(server.requests.length, 0, 'nothing was sent');
      await assert.rejects(stat(join(home, '.config', 'svcctl', 'credentials.json')), { code: 'ENOENT' });
    });
  });

  describe('colours: the error of a bad base URL is the probe, its "error:" prefix red when colours are on', () => {
    const RED_ERROR = '\x1b[31merror:';
    const send = (extra = ''): string => `${svcctl} event send --title x --base-url http://host.example ${extra}`;

    it('on a terminal without NO_COLOR: the error prefix is red', async () => {
      const home = await tempDir('svcctl-color-');
      const session = underTerminal(send(), home, { NO_COLOR: undefined, SERVICE_INGEST_TOKEN: 't' }, KILL_AFTER_MS);
      assert.equal(await session.done, 2);
      assert.ok(session.screen().includes(RED_ERROR), JSON.stringify(session.screen()));
    });

    it('on a terminal with NO_COLOR=1, or with --no-color: no escape sequences', async () => {
      const home = await tempDir('svcctl-color-');
      const withEnv = underTerminal(send(), home, { NO_COLOR: '1', SERVICE_INGEST_TOKEN: 't' }, KILL_AFTER_MS);
      const noColor = { NO_COLOR: undefined, SERVICE_INGEST_TOKEN: 't' };
      const withFlag = underTerminal(send('--no-color'), home, noColor, KILL_AFTER_MS);
      assert.equal(await withEnv.done, 2);
      assert.equal(await withFlag.done, 2);
      for (const screen of [withEnv.screen(), withFlag.screen()]) {
        assert.match(screen, /error: .*must end in \/api/);
        assert.ok(!screen.includes('\x1b['), JSON.stringify(screen));
      }
    });
  });

  describe('a new user at a terminal', () => {
    let server: LoginServer;
    before(async () => {
      server = await startLoginServer();
    });
    after(async () => server.close());

    it('login --save on a terminal prints the ✓ line and not the token; piped, the token is on stdout', async () => {
      const home = await tempDir('svcctl-defaults-');
      const session = underTerminal(`${svcctl} login --save --email ${EMAIL} --base-url ${server.baseUrl}`, home, {
        SERVICE_PASSWORD: PASSWORD,
      });
      assert.equal(await session.done, 0, session.screen());
      assert.match(session.screen(), /Logged in to http:\/\/127\.0\.0\.1:\d+\/api as ops@acme\.example/);
      assert.ok(!session.screen().includes(server.issued.at(-1)!), 'the token is not shown on the terminal');
      const piped = await runCli(['login', '--save', '--email', EMAIL, '--base-url', server.baseUrl], {
        home,
        env: { SERVICE_PASSWORD: PASSWORD },
      });
      assert.equal(piped.stdout, `${server.issued.at(-1)}\n`);
    });

    it('svcctl dev in the foreground on a terminal: a summary and export lines, no JSON line', async () => {
      const home = await tempDir('svcctl-defaults-');
      const session = underTerminal(`${svcctl} dev --port 0`, home);
      await session.waitFor(/Local-mode MCP entries/);
      const screen = session.screen();
      assert.match(screen, /Sandbox ready: http:\/\/127\.0\.0\.1:\d+\/api/);
      assert.match(screen, /^export SERVICE_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/api\r?$/m);
      assert.match(screen, /^svcctl_dev_stop\(\) \{\r?$/m, 'and the function that unsets them again');
      assert.ok(!screen.includes('{"base_url"'), screen);
      session.type('\x03');
      assert.equal(await session.done, 130);
    });
  });
});
