/**
 * svcctl login at a terminal: the built CLI runs under a real pseudo-terminal
 * (util-linux `script`), as `TOKEN=$(svcctl login)`. The prompts must appear on
 * the terminal (stderr), the typed password must not, and the captured stdout
 * must be exactly the token.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BIN } from './helpers/cli.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

let server: LoginServer;
before(async () => {
  server = await startLoginServer({ ttlSeconds: 3570 });
});
after(() => server.close());

test('TOKEN=$(svcctl login) at a terminal: prompts on the terminal, password masked, stdout is exactly the token', {
  skip: !hasScript && 'util-linux script is not installed',
}, async () => {
  const home = await tempDir();
  const captured = join(home, 'captured.txt');
  const command = `TOKEN=$(${shellQuote(process.execPath)} ${shellQuote(BIN)} login); status=$?; printf '%s' "$TOKEN" > captured.txt; exit $status`;
  const session = underTerminal(command, home, { SERVICE_BASE_URL: server.baseUrl });
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

test('svcctl login --json at a terminal: only the prompt for what is missing; stdout holds one JSON document', {
  skip: !hasScript && 'util-linux script is not installed',
}, async () => {
  const home = await tempDir();
  const command = `${shellQuote(process.execPath)} ${shellQuote(BIN)} --json login > out.json`;
  const session = underTerminal(command, home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL });
  await session.waitFor(/Password/);
  session.type(`${PASSWORD}\r`);
  assert.equal(await session.done, 0, session.screen());
  assert.ok(!/Email/.test(session.screen()), 'the email came from SERVICE_EMAIL: no email prompt');
  const parsed = JSON.parse(await readFile(join(home, 'out.json'), 'utf8'));
  assert.equal(parsed.access_token, server.issued.at(-1));
  assert.equal(parsed.email, EMAIL);
});

test('Ctrl+C in the password prompt ends with exit 130, nothing on stdout and no file written', {
  skip: !hasScript && 'util-linux script is not installed',
}, async () => {
  const home = await tempDir();
  const count = server.requests.length;
  const command = `${shellQuote(process.execPath)} ${shellQuote(BIN)} login --save --email ${EMAIL} > out.txt`;
  const session = underTerminal(command, home, { SERVICE_BASE_URL: server.baseUrl });
  await session.waitFor(/Password/);
  session.type('half');
  session.type('\x03');
  assert.equal(await session.done, 130, session.screen());
  assert.match(session.screen(), /interrupted/);
  assert.ok(!/at \S+ \(.*:\d+:\d+\)/.test(session.screen()), 'no stack trace');
  assert.equal(await readFile(join(home, 'out.txt'), 'utf8'), '');
  assert.equal(server.requests.length, count, 'nothing was sent');
  await assert.rejects(stat(join(home, '.config', 'svcctl', 'credentials.json')), { code: 'ENOENT' });
});
