/**
 * Approval before a declaration acts (issue 46, item 3), in-process on real files in a temp HOME: a pulled
 * declaration writes nothing off a terminal (exit 7, a summary naming host, package and what it removes, and the
 * command that approves it), `--yes` approves, the same content is not asked about again, a changed one is; at a
 * terminal the question decides; the approval is kept 0600 in the state folder and a link there approves nothing.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { ENTER, runAtTerminal } from './helpers/fake-terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

const PULLED = `clients = ["cursor", "vscode"]
scope = "user"

[[server]]
name = "ops"
base_url = "https://ops.attacker.example/api"
mode = "local"
package = "evil-mcp@1.0.0"
`;

async function pulled(text = PULLED): Promise<{ home: string; file: string; cursor: string; vscode: string }> {
  const home = await tempDir('svcctl-sync-approval-');
  const file = await placeFile(home, 'repo/svcctl-mcp.toml', text);
  return {
    home,
    file,
    cursor: join(home, '.cursor', 'mcp.json'),
    vscode: join(home, '.config', 'Code', 'User', 'mcp.json'),
  };
}

const sync = (home: string, args: string[]) => runCli(['mcp', 'sync', ...args], { home, cwd: home });
const absent = (path: string) => readFile(path, 'utf8').catch(() => '<absent>');
const approvals = (home: string) => join(home, '.local', 'state', 'svcctl', 'sync-approvals.json');

describe('mcp sync: approval of a declaration', () => {
  it('off a terminal writes nothing, exits 7, names host and package and the approving command; --yes approves', async () => {
    const { home, file, cursor, vscode } = await pulled();
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /is not approved on this machine yet/);
    assert.match(
      refused.stderr,
      /write 'ops' \(user scope\) into Cursor, VS Code: host ops\.attacker\.example, mode local, runs the npm package evil-mcp@1\.0\.0, auth password/,
    );
    assert.match(refused.stderr, /not approved: nothing was written/);
    assert.match(refused.stderr, /svcctl mcp sync --file '?\/\S*svcctl-mcp\.toml'? --yes/);
    assert.equal(await absent(cursor), '<absent>');
    assert.equal(await absent(vscode), '<absent>');
    assert.equal(await absent(approvals(home)), '<absent>');
    const json = await runCli(['--json', 'mcp', 'sync', '--file', file], { home, cwd: home });
    assert.equal(json.code, 7, json.stderr);
    const document = JSON.parse(json.stdout);
    assert.equal(document.approved, false);
    assert.equal(document.changed, false);
    assert.match(document.summary[0], /^write 'ops' .*host ops\.attacker\.example.*evil-mcp@1\.0\.0/);

    const approved = await sync(home, ['--file', file, '--yes']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(await readFile(cursor, 'utf8'), /evil-mcp@1\.0\.0/);
    assert.equal((await lstat(approvals(home))).mode & 0o777, 0o600);

    // The same content again: no question, and nothing to change.
    await writeFile(cursor, '{ "mcpServers": {} }\n');
    const again = await sync(home, ['--file', file]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /not approved/);
  });

  it('a changed declaration asks again; --check and --dry-run never ask', async () => {
    const { home, file, cursor } = await pulled();
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    const written = await readFile(cursor, 'utf8');
    await writeFile(file, PULLED.replace('evil-mcp@1.0.0', 'evil-mcp@2.0.0'));
    const changed = await sync(home, ['--file', file]);
    assert.equal(changed.code, 7, changed.stderr);
    assert.match(changed.stderr, /runs the npm package evil-mcp@2\.0\.0/);
    assert.equal(await readFile(cursor, 'utf8'), written);
    const check = await sync(home, ['--file', file, '--check']);
    assert.equal(check.code, 8, check.stderr);
    assert.doesNotMatch(check.stderr, /not approved/);
    const dry = await sync(home, ['--file', file, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(await readFile(cursor, 'utf8'), written);
  });

  it("the summary names what a declaration removes, such as the user's mcp install entries", async () => {
    const { home, file, cursor } = await pulled('clients = ["cursor"]\nscope = "user"\n');
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
    const installed = await runCli(['mcp', 'install', '--client', 'cursor', '--name', 'mine'], { home, env });
    assert.equal(installed.code, 0, installed.stderr);
    const before = await readFile(cursor, 'utf8');
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /remove 'mine' from Cursor \(.*\.cursor\/mcp\.json\)/);
    assert.equal(await readFile(cursor, 'utf8'), before);
  });

  it('at a terminal the question decides: no writes nothing, yes writes and approves', async () => {
    const { home, file, cursor } = await pulled();
    const question = /Approve this declaration and write these entries\?/;
    const no = await runAtTerminal(['mcp', 'sync', '--file', file], { home, answers: [[question, `n${ENTER}`]] });
    assert.equal(no.code, 7, no.screen);
    assert.match(no.screen, /host ops\.attacker\.example/);
    assert.equal(await absent(cursor), '<absent>');
    const yes = await runAtTerminal(['mcp', 'sync', '--file', file], { home, answers: [[question, `y${ENTER}`]] });
    assert.equal(yes.code, 0, yes.screen);
    assert.match(await readFile(cursor, 'utf8'), /evil-mcp@1\.0\.0/);
  });

  it('a link in place of the approvals record approves nothing and is not written through', async () => {
    const { home, file, cursor } = await pulled();
    const planted = await placeFile(home, 'elsewhere/approvals.json', '{"version":1,"approved":{}}\n');
    await mkdir(join(home, '.local', 'state', 'svcctl'), { recursive: true, mode: 0o700 });
    await symlink(planted, approvals(home));
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    assert.equal(await readFile(planted, 'utf8'), '{"version":1,"approved":{}}\n');
    await writeFile(cursor, '{ "mcpServers": {} }\n');
    const again = await sync(home, ['--file', file]);
    assert.equal(again.code, 7, again.stderr);
  });

  it('the summary names every declared server, also one not written this time, which a later sync writes unasked', async () => {
    // A hostile repository: 'sneaky' is blocked by an entry it committed, so the first sync writes only 'ops'; the
    // next commit removes the blocker, and the approved content writes 'sneaky' without a question.
    const declaration = `clients = ["cursor"]
scope = "project"

[[server]]
name = "ops"
base_url = "https://ops.example.com/api"

[[server]]
name = "sneaky"
base_url = "https://collect.attacker.example/api"
package = "sneaky-mcp@6.6.6"
`;
    const home = await tempDir('svcctl-sync-approval-');
    const file = await placeFile(home, 'repo/svcctl-mcp.toml', declaration);
    const cursor = await placeFile(
      home,
      'repo/.cursor/mcp.json',
      '{ "mcpServers": { "sneaky": { "command": "true" } } }\n',
    );
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /write 'ops' \(project scope\) into Cursor: host ops\.example\.com/);
    assert.match(
      refused.stderr,
      /'sneaky' \(project scope\) for Cursor, not written now \(a later sync writes it without asking\): host collect\.attacker\.example, mode local, runs the npm package sneaky-mcp@6\.6\.6/,
    );
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 7);
    await writeFile(cursor, '{ "mcpServers": {} }\n');
    assert.equal((await sync(home, ['--file', file])).code, 0);
    assert.match(await readFile(cursor, 'utf8'), /sneaky-mcp@6\.6\.6/);
  });

  it("a project's link to a declaration approved in another project is not approved: it writes into another folder", async () => {
    const home = await tempDir('svcctl-sync-approval-');
    const declaration =
      'clients = ["cursor"]\nscope = "project"\n\n[[server]]\nname = "ops"\nbase_url = "https://ops.example.com/api"\n';
    const team = await placeFile(home, 'team/svcctl-mcp.toml', declaration);
    assert.equal((await sync(home, ['--file', team, '--yes'])).code, 0);
    await mkdir(join(home, 'cloned'));
    const linked = join(home, 'cloned', 'svcctl-mcp.toml');
    await symlink('../team/svcctl-mcp.toml', linked);
    const refused = await sync(home, ['--file', linked]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /not approved on this machine yet/);
    assert.equal(await absent(join(home, 'cloned', '.cursor', 'mcp.json')), '<absent>');
    // Approving the link leaves the team's own approval as it was.
    assert.equal((await sync(home, ['--file', linked, '--yes'])).code, 0);
    await writeFile(join(home, 'team', '.cursor', 'mcp.json'), '{ "mcpServers": {} }\n');
    assert.equal((await sync(home, ['--file', team])).code, 0);
  });

  it('the summary of a proxy entry names the npm package it runs, as the written entry does', async () => {
    const { home, file, cursor } = await pulled(
      PULLED.replace('mode = "local"\npackage = "evil-mcp@1.0.0"', 'mode = "proxy"'),
    );
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /write 'ops' .*mode proxy, runs the npm package mcp-remote, auth password/);
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    const entry = JSON.parse(await readFile(cursor, 'utf8')).mcpServers.ops;
    assert.ok(
      [entry.command, ...entry.args].some((word: string) => /^mcp-remote(@|$)/.test(word)),
      JSON.stringify(entry),
    );
    assert.ok(![entry.command, ...entry.args].includes('proxy'), JSON.stringify(entry));

    await writeFile(
      file,
      PULLED.replace('mode = "local"\npackage = "evil-mcp@1.0.0"', 'mode = "proxy"\nauth = "bearer"\ntoken = "helper"'),
    );
    const helper = await sync(home, ['--file', file]);
    assert.match(helper.stderr, /mode proxy, runs svcctl mcp proxy, auth bearer \(token helper\)/);
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    const proxied = JSON.parse(await readFile(cursor, 'utf8')).mcpServers.ops;
    assert.match([proxied.command, ...proxied.args].join(' '), /svcctl.* mcp proxy/);
  });

  it('an approved declaration asks again before it removes an entry installed after the approval', async () => {
    const { home, file, cursor } = await pulled();
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
    const installed = await runCli(['mcp', 'install', '--client', 'cursor', '--name', 'mine'], { home, env });
    assert.equal(installed.code, 0, installed.stderr);
    const before = await readFile(cursor, 'utf8');
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /would also remove entries it does not declare/);
    assert.match(refused.stderr, /remove 'mine' from Cursor/);
    assert.equal(await readFile(cursor, 'utf8'), before);
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    assert.doesNotMatch(await readFile(cursor, 'utf8'), /"mine"/);
  });

  it('the summary of clients = "detected" says that clients found later get the entries too', async () => {
    const { home, file, cursor } = await pulled(
      PULLED.replace('clients = ["cursor", "vscode"]', 'clients = "detected"'),
    );
    await mkdir(join(home, '.cursor'));
    const env = { PATH: join(home, 'no-bin'), XDG_DATA_DIRS: join(home, 'no-such-dir') };
    const refused = await runCli(['mcp', 'sync', '--file', file], { home, cwd: home, env });
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /write 'ops' \(user scope\) into Cursor:/);
    assert.match(
      refused.stderr,
      /clients = "detected": a client found on this machine later gets these entries without asking/,
    );
    assert.equal(await absent(cursor), '<absent>');
  });

  it('a remote token-helper server: the summary says which clients run svcctl for a token and which as the proxy', async () => {
    const { home, file, cursor } = await pulled(
      PULLED.replace('["cursor", "vscode"]', '["claude-code", "cursor"]').replace(
        'mode = "local"\npackage = "evil-mcp@1.0.0"',
        'mode = "remote"\nauth = "bearer"\ntoken = "helper"',
      ),
    );
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(
      refused.stderr,
      /mode remote, runs svcctl for its token \(Claude Code\), svcctl mcp proxy \(Cursor\), auth bearer \(token helper\)/,
    );
    // Checked against the entries written: Claude Code's runs a headers command, Cursor's is a stdio proxy.
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    const claude = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')).mcpServers.ops;
    assert.match(claude.headersHelper, /svcctl.* token --refresh --json-headers$/);
    const proxied = JSON.parse(await readFile(cursor, 'utf8')).mcpServers.ops;
    assert.match([proxied.command, ...proxied.args].join(' '), /svcctl.* mcp proxy$/);
  });
});
