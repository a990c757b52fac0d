/**
 * Entries that a client starts through `cmd /c` on Windows (Codex, Cline, Goose, …): cmd.exe joins the arguments into
 * one line and reads `^`, `<`, `>`, `&`, `|` and `%NAME%` in it as its own, so `--package pkg@^1.4` would start
 * pkg@1.4, `pkg@>=1.2` would redirect the server's output to a file named `=1.2`, and a URL's `&` would end the
 * command. svcctl refuses such an argument there, saying why, and writes it as it is where no cmd.exe reads it.
 * The character rules are cmd.exe's (docs/mcp.md, "Arguments after cmd /c"), not taken from svcctl's output.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError, ExitCode } from '../src/core/errors.js';
import { renderEntry } from '../src/mcp/clients/render-entry.js';
import type { ClientId, EntryRequest, Mode } from '../src/mcp/types.js';
import { runCli } from './helpers/cli.js';
import { entryRequest } from './helpers/mcp-request.js';

const render = (client: ClientId, mode: Mode, extra: Partial<EntryRequest>) =>
  renderEntry(entryRequest(client, mode, 'password', extra)).value as { command: string; args: string[] };

const refusedForCmd = (client: ClientId, mode: Mode, extra: Partial<EntryRequest>, shown: RegExp): void => {
  assert.throws(
    () => render(client, mode, { platform: 'win32', ...extra }),
    (error: unknown) => {
      assert.ok(error instanceof CliError);
      assert.equal(error.exitCode, ExitCode.Usage);
      assert.match(error.message, /starts it through `cmd \/c`/);
      assert.match(error.message, shown);
      assert.match(error.hint ?? '', /exact version|without &/);
      return true;
    },
    `${client} ${JSON.stringify(extra)}`,
  );
};

test('--package with ^ or >=: refused for a client that starts npx through cmd /c on Windows', () => {
  for (const client of ['codex', 'cline', 'goose'] as const) {
    refusedForCmd(client, 'local', { package: 'pkg@^1.4' }, /"pkg@\^1\.4".*reads `\^`/);
    refusedForCmd(client, 'local', { package: 'pkg@>=1.2' }, /reads `>`/);
    refusedForCmd(client, 'local', { package: 'pkg@1.x || 2.x' }, /reads `\|`/);
  }
});

test('a URL with & in its query or a %NAME% in it: refused after cmd /c (proxy mode)', () => {
  const mcpUrl = 'https://acme.example.com/mcp?tenant=a&region=eu';
  refusedForCmd('codex', 'proxy', { mcpUrl }, /tenant=a&region=eu.*reads `&`/);
  refusedForCmd('cline', 'proxy', { mcpUrl: 'https://acme.example.com/%USERNAME%/mcp' }, /reads `%NAME%`/);
});

test('what cmd.exe leaves alone is written as it is: an exact version, a lone %20, a plain URL', () => {
  assert.deepEqual(render('codex', 'local', { platform: 'win32', package: 'pkg@1.4.x' }).args, [
    '/c',
    'npx',
    '-y',
    'pkg@1.4.x',
  ]);
  const spaced = 'https://acme.example.com/my%20team/mcp';
  assert.ok(render('codex', 'proxy', { platform: 'win32', mcpUrl: spaced }).args.includes(spaced));
});

test('where no cmd.exe reads the line (other systems, clients that start npx themselves) the range is kept', () => {
  assert.deepEqual(render('codex', 'local', { platform: 'linux', package: 'pkg@^1.4' }).args, ['-y', 'pkg@^1.4']);
  assert.deepEqual(render('vscode', 'local', { platform: 'win32', package: 'pkg@>=1.2' }).args, ['-y', 'pkg@>=1.2']);
  const mcpUrl = 'https://acme.example.com/mcp?tenant=a&region=eu';
  assert.ok(render('codex', 'proxy', { platform: 'darwin', mcpUrl }).args.includes(mcpUrl));
});

test('through the CLI: mcp print --package pkg@^1.4 for Codex is refused on Windows only', async () => {
  const result = await runCli([
    'mcp',
    'print',
    '--client',
    'codex',
    '--base-url',
    'https://acme.example.com/api',
    '--package',
    'pkg@^1.4',
  ]);
  if (process.platform === 'win32') {
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /cmd \/c/);
  } else {
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /"pkg@\^1\.4"/);
  }
});
