/**
 * Detected clients: evidence faked under a temp HOME and a temp PATH (a config folder, a program that prints its
 * version, a desktop file) is what `mcp clients` shows, what `clients = "detected"` syncs and what
 * `mcp install --detected` installs into, and nothing else.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

interface Machine {
  home: string;
  env: Record<string, string>;
}

/** Cursor by its config folder, Codex by its program on PATH, VS Code by its desktop file. */
async function fakeMachine(): Promise<Machine> {
  const home = await tempDir('svcctl-detect-');
  await mkdir(join(home, '.cursor'), { recursive: true });
  const codex = await placeFile(home, 'bin/codex', '#!/bin/sh\necho "codex-cli 0.63.0"\n');
  await chmod(codex, 0o755);
  await placeFile(home, '.local/share/applications/code.desktop', '[Desktop Entry]\nName=Visual Studio Code\n');
  // Nothing from the real machine: its PATH and system-wide applications folders are replaced.
  return { home, env: { PATH: join(home, 'bin'), XDG_DATA_DIRS: join(home, 'no-such-dir') } };
}

const DETECTED = ['cursor', 'vscode', 'codex'];

describe('detected clients', () => {
  it('mcp clients shows each found client with its evidence and the version its program reports', async () => {
    const { home, env } = await fakeMachine();
    const result = await runCli(['--json', 'mcp', 'clients'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const found = JSON.parse(result.stdout) as {
      client: string;
      version: string | null;
      evidence: { kind: string; path: string }[];
    }[];
    assert.deepEqual(
      found.map((c) => c.client),
      DETECTED,
    );
    const byId = Object.fromEntries(found.map((c) => [c.client, c]));
    assert.deepEqual(byId.cursor!.evidence, [{ kind: 'config folder', path: join(home, '.cursor') }]);
    assert.deepEqual(byId.codex!.evidence, [{ kind: 'program', path: join(home, 'bin', 'codex') }]);
    assert.equal(byId.codex!.version, '0.63.0');
    assert.deepEqual(byId.vscode!.evidence, [
      { kind: 'desktop file', path: join(home, '.local', 'share', 'applications', 'code.desktop') },
    ]);
    const text = await runCli(['mcp', 'clients'], { home, env });
    assert.match(text.stdout, /^codex +0\.63\.0 +program .*\/bin\/codex$/m);
  });

  it('a version is the number, not the full stop after it; a pre-release part stays', async () => {
    const { home, env } = await fakeMachine();
    // As GitHub Copilot CLI 1.0.102 prints it: a sentence, its full stop right after the number.
    const lines = {
      copilot: 'GitHub Copilot CLI 1.0.102.\nRun copilot update to check.',
      qwen: '0.25.0-nightly.20261127',
    };
    for (const [program, line] of Object.entries(lines))
      await chmod(await placeFile(home, `bin/${program}`, `#!/bin/sh\nprintf '%s\\n' '${line}'\n`), 0o755);
    const result = await runCli(['--json', 'mcp', 'clients'], { home, env });
    const versions = Object.fromEntries(
      (JSON.parse(result.stdout) as { client: string; version: string | null }[]).map((c) => [c.client, c.version]),
    );
    assert.equal(versions.copilot, '1.0.102');
    assert.equal(versions.qwen, '0.25.0-nightly.20261127');
  });

  it('clients = "detected" syncs exactly the clients found', async () => {
    const { home, env } = await fakeMachine();
    const file = await placeFile(
      home,
      'fleet.toml',
      'clients = "detected"\n[[server]]\nname = "ops"\nbase_url = "https://acme.example.com/api"\n',
    );
    const result = await runCli(['--json', 'mcp', 'sync', '--file', file, '--yes'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { clients: { client: string; status: string }[] };
    assert.deepEqual(
      report.clients.map((c) => [c.client, c.status]),
      DETECTED.map((id) => [id, 'changed']),
    );
    assert.ok(parseJsonc(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.ops);
    assert.match(await readFile(join(home, '.codex', 'config.toml'), 'utf8'), /^\[mcp_servers\.ops\]$/m);
  });

  it('mcp install --detected installs into the clients found; none found is exit 2', async () => {
    const { home, env } = await fakeMachine();
    const args = ['mcp', 'install', '--detected', '--base-url', 'https://acme.example.com/api', '--dry-run'];
    const result = await runCli(args, { home, env });
    assert.equal(result.code, 0, result.stderr);
    for (const label of ['Cursor', 'VS Code', 'Codex CLI'])
      assert.match(result.stderr, new RegExp(`^${label} \\(user scope\\): would`, 'm'));
    assert.equal(result.stderr.match(/\(user scope\): would/g)?.length, 3);
    const empty = await tempDir('svcctl-detect-none-');
    const none = await runCli(args, { home: empty, env: { PATH: join(empty, 'bin'), XDG_DATA_DIRS: empty } });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--detected: no MCP client was found on this machine/);
  });
});
