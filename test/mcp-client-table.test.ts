/**
 * The client table is the only place that knows a client: no module outside
 * src/mcp/clients/ (and the id list in src/mcp/types.ts) names or compares a
 * client id, and a client that exists only in this test (one row, registered
 * with registerClient) is rendered, installed, listed and doctored through the
 * same library functions the CLI runs (runMcpInstall, findServiceEntries,
 * runMcpDoctor) against real files in a temp HOME. The CLI's --client choices
 * stay the nine real ids, so the test row goes through the library, not argv.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { runMcpDoctor } from '../src/commands/mcp-doctor.js';
import { runMcpInstall } from '../src/commands/mcp-install.js';
import { findServiceEntries } from '../src/commands/mcp-list.js';
import type { Context } from '../src/core/context.js';
import { KnownSecrets } from '../src/redaction/known-secrets.js';
import { clientCommand } from '../src/mcp/clients/add-commands.js';
import { registerClient } from '../src/mcp/clients/table.js';
import { buildEntryRequest } from '../src/mcp/install/entry-request.js';
import { renderEntry } from '../src/mcp/clients/render-entry.js';
import { CLIENT_IDS, type ClientId, type ClientSpec } from '../src/mcp/types.js';
import { Output } from '../src/core/output.js';
import { ROOT } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const ID = 'test-editor' as ClientId;
const MCP_URL = 'http://127.0.0.1:9/mcp';

/** A client unlike the nine: `httpUrl`, `type: "streamable-http"`, `type: "local"` stdio entries, under `mcp`. */
const testEditor: ClientSpec = {
  id: ID,
  label: 'Test Editor',
  format: 'jsonc',
  scopes: ['user'],
  configPath: (env) => join(env.homeDir, '.test-editor', 'settings.json'),
  entryPath: (name) => ['mcp', name],
  serversPath: () => ['mcp'],
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: (env) => join(env.homeDir, '.test-editor'),
  afterChangeNote: () => 'Reload Test Editor.',
  shape: { stdioFields: { type: 'local' }, remote: { urlField: 'httpUrl', fields: { type: 'streamable-http' } } },
  guiApp: true,
  extraNotes: (request) => (request.mode === 'remote' ? ['Test Editor note for remote entries.'] : []),
  doctor: {
    entryRule: (name, entry, mode, reinstall) =>
      mode === 'remote' && entry.type !== 'streamable-http'
        ? { message: `'${name}': Test Editor needs type "streamable-http"`, fix: reinstall(' --mode remote') }
        : undefined,
  },
  addCommand: (request, rendered) => ({
    command: `test-editor mcp add ${request.name} ${JSON.stringify(rendered.value)}`,
    links: [],
    notes: [],
  }),
};
registerClient(testEditor);

interface Captured {
  ctx: Context;
  stdout: () => string;
}

function contextIn(home: string, env: NodeJS.ProcessEnv = {}): Captured {
  let out = '';
  let err = '';
  const stdout = { write: (chunk: string | Uint8Array): boolean => ((out += String(chunk)), true) };
  const stderr = { write: (chunk: string | Uint8Array): boolean => ((err += String(chunk)), true) };
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const ctx: Context = {
    env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_MCP_URL: MCP_URL, ...env },
    cwd: home,
    homeDir: home,
    platform: 'linux',
    stdin,
    out: new Output({ stdout, stderr, env: {} }),
    globals: { json: true, quiet: false, verbose: false, color: false, input: false },
    secrets: new KnownSecrets(),
    now: () => new Date(),
  };
  return { ctx, stdout: () => `${out}${err}` };
}

describe('the client table', () => {
  it("is as long as the README says (the README's count is a number no other test reads)", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const said = /MCP configuration of (\d+) clients/.exec(readme)?.[1];
    assert.equal(Number(said), CLIENT_IDS.length, 'README.md: "writes or patches the MCP configuration of N clients"');
  });

  it('no module outside src/mcp/clients/ and the id list names or compares a client id', () => {
    const issueGrep = spawnGrep([
      '-nE',
      "id === '|case '(claude|cursor|vscode|windsurf|codex|gemini|cline|zed)",
      'src/mcp',
    ]);
    assert.deepEqual(
      issueGrep.filter((line) => !line.startsWith('src/mcp/clients/')),
      [],
    );
    // Any quoted client id in src/, outside the table and the CLIENT_IDS list.
    const quoted = spawnGrep(['-nE', `'(${CLIENT_IDS.join('|')})'`, 'src']);
    const outside = quoted.filter(
      (line) => !line.startsWith('src/mcp/clients/') && !line.startsWith('src/mcp/types.ts:'),
    );
    assert.deepEqual(outside, []);
    // The check itself sees the table's own ids (so an empty result above is not a broken grep).
    assert.ok(quoted.some((line) => line.startsWith('src/mcp/clients/cursor.ts:') && line.includes("'cursor'")));
  });

  it('renders a test-only row from its shape and notes, and builds its own add command', async () => {
    const home = await tempDir();
    const { ctx } = contextIn(home);
    const request = await buildEntryRequest(
      ctx,
      { client: ID },
      { mode: 'remote', auth: 'bearer' },
      { literals: 'placeholders' },
    );
    assert.equal(request.secrets, 'ref', 'env-colon variables: references by default');
    const rendered = renderEntry(request);
    assert.deepEqual(rendered.value, {
      type: 'streamable-http',
      httpUrl: MCP_URL,
      headers: { Authorization: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
    });
    assert.equal(rendered.notes[0], 'Reload Test Editor.');
    assert.match(rendered.notes[1]!, /^Test Editor started from a dock/);
    assert.equal(rendered.notes[2], 'Test Editor note for remote entries.');
    const local = renderEntry(
      await buildEntryRequest(ctx, { client: ID }, { mode: 'local' }, { literals: 'placeholders' }),
    );
    assert.equal(local.value.type, 'local');
    assert.equal(local.value.command, 'npx');
    const command = clientCommand(testEditor, request, rendered);
    assert.equal(command.command, `test-editor mcp add service ${JSON.stringify(rendered.value)}`);
  });

  it('installs, lists and doctors the test-only row in a temp HOME', async () => {
    const home = await tempDir();
    const install = contextIn(home);
    await runMcpInstall(install.ctx, { client: [ID], mode: 'remote', auth: 'bearer' });
    const file = join(home, '.test-editor', 'settings.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as { mcp: Record<string, Record<string, unknown>> };
    assert.deepEqual(Object.keys(written), ['mcp']);
    assert.equal(written.mcp.service?.httpUrl, MCP_URL);
    assert.equal(written.mcp.service?.type, 'streamable-http');

    const listed = await findServiceEntries(contextIn(home).ctx, {});
    assert.deepEqual(listed.entries, [
      { client: ID, scope: 'user', file, name: 'service', mode: 'remote', url: MCP_URL, other_deployment: false },
    ]);

    // The token variable is unset: the entry passes, the connection is not tried (nothing listens on port 9).
    const doctor = contextIn(home);
    await assert.rejects(runMcpDoctor(doctor.ctx, { client: [ID] }));
    const report = JSON.parse(
      doctor
        .stdout()
        .split('\n')
        .find((line) => line.startsWith('{'))!,
    ) as { client: string; checks: { name: string; ok: boolean; detail: string }[] };
    assert.equal(report.client, ID);
    assert.deepEqual(
      report.checks.map((check) => [check.name, check.ok]),
      [
        ['file', true],
        ['entry', true],
        ['variables', false],
        ['initialize', false],
      ],
    );

    // The row's own doctor rule: without its transport value the entry is misread.
    written.mcp.service!.type = 'http';
    await writeFile(file, JSON.stringify(written, null, 2));
    const misread = contextIn(home);
    await assert.rejects(runMcpDoctor(misread.ctx, { client: [ID] }));
    const failed = JSON.parse(
      misread
        .stdout()
        .split('\n')
        .find((line) => line.startsWith('{'))!,
    ) as { checks: { name: string; ok: boolean; detail: string; fix: string | null }[] };
    const entry = failed.checks.find((check) => check.name === 'entry')!;
    assert.equal(entry.ok, false);
    assert.equal(entry.detail, `'service': Test Editor needs type "streamable-http"`);
    assert.equal(entry.fix, `svcctl mcp install --client ${ID} --mode remote --force`);
  });
});

function spawnGrep(args: string[]): string[] {
  try {
    return execFileSync('git', ['grep', '--untracked', ...args], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}
