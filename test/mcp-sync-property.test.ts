/**
 * A property of `mcp sync` on real files: for any sequence of random declarations, each sync leaves every
 * client's file holding exactly the declared entries plus the entries svcctl did not write (those byte for byte
 * as they were), a sync right after changes no byte, and the end state is the one a fresh machine gets from the
 * last declaration alone; between two syncs the client may rewrite its whole file, as Claude Code and Qwen Code
 * do at their first start (its own key added, another indentation, keys in another order). A declaration not
 * approved yet (none, or another text, was approved before) writes nothing without --yes; once approved, a run
 * without --yes goes on as with it.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import fc from 'fast-check';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

interface Server {
  name: string;
  mode: 'local' | 'remote' | 'proxy';
  host: string;
}

const NAMES = ['alpha', 'beta', 'gamma', 'taken'];
const CURSOR_MINE =
  '{\n  // kept\n  "mcpServers": {\n    "mine": { "command": "my-server", "args": ["--x"] }\n  }\n}\n';
// Codex's own 'taken' entry: the one declared name svcctl must never take over.
const CODEX_TAKEN = '# mine\n[mcp_servers.taken]\ncommand = "their-server"\n';

const declarations = fc.array(
  fc.record({
    servers: fc.uniqueArray(
      fc.record({
        name: fc.constantFrom(...NAMES),
        mode: fc.constantFrom('local', 'remote', 'proxy'),
        host: fc.constantFrom('a.example.com', 'b.example.com'),
      }),
      { selector: (server) => server.name, maxLength: 4 },
    ),
    clientRewrites: fc.boolean(),
  }),
  { minLength: 1, maxLength: 4 },
);

/** VS Code's file as a client that loads and saves it whole would leave it; the values stay the same. */
async function rewriteAsClient(path: string): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const reversed = (value: unknown): unknown =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .reverse()
            .map((key) => [key, reversed((value as Record<string, unknown>)[key])]),
        )
      : value;
  await writeFile(path, `${JSON.stringify({ $version: 4, ...(reversed(JSON.parse(text)) as object) }, null, 4)}\n`);
}

const fileOf = (servers: Server[]): string =>
  `clients = ["cursor", "codex", "vscode"]\n${servers
    .map((s) => `\n[[server]]\nname = "${s.name}"\nbase_url = "https://${s.host}/api"\nmode = "${s.mode}"\n`)
    .join('')}`;

async function freshMachine(): Promise<{ home: string; declaration: string }> {
  const home = await tempDir('svcctl-sync-prop-');
  await placeFile(home, '.cursor/mcp.json', CURSOR_MINE);
  await placeFile(home, '.codex/config.toml', CODEX_TAKEN);
  return { home, declaration: join(home, 'svcctl-mcp.toml') };
}

const paths = (home: string) => [
  join(home, '.cursor', 'mcp.json'),
  join(home, '.codex', 'config.toml'),
  join(home, '.config', 'Code', 'User', 'mcp.json'),
];

async function serversIn(home: string): Promise<Record<string, Record<string, unknown>>> {
  const [cursor, codex, vscode] = await Promise.all(paths(home).map((path) => readFile(path, 'utf8').catch(() => '')));
  return {
    cursor: (parseJsonc(cursor!)?.mcpServers ?? {}) as Record<string, unknown>,
    // Plain objects, as the JSON files give (smol-toml's tables have no prototype).
    codex: JSON.parse(JSON.stringify(parseToml(codex!).mcp_servers ?? {})),
    vscode: (vscode ? parseJsonc(vscode).servers : {}) as Record<string, unknown>,
  };
}

const bytesOf = (home: string) => Promise.all(paths(home).map((path) => readFile(path, 'utf8').catch(() => '')));

async function sync(home: string, declaration: string, servers: Server[]) {
  await writeFile(declaration, fileOf(servers));
  return runCli(['mcp', 'sync', '--file', declaration, '--yes'], { home, cwd: home });
}

/** Without --yes, a declaration whose text was not the last one approved changes no byte: it asks, or has nothing to do. */
async function unapproved(home: string, declaration: string, servers: Server[]): Promise<void> {
  await writeFile(declaration, fileOf(servers));
  const before = await bytesOf(home);
  const result = await runCli(['mcp', 'sync', '--file', declaration], { home, cwd: home });
  assert.deepEqual(await bytesOf(home), before, result.stderr);
  if (result.code === 0) assert.match(result.stderr, /nothing to change/);
  else assert.match(result.stderr, /not approved|not synced/);
}

it('any sequence of syncs converges; sync after sync changes nothing; others’ entries stay', async () => {
  await fc.assert(
    fc.asyncProperty(declarations, async (sequence) => {
      const { home, declaration } = await freshMachine();
      let approved: string | undefined;
      for (const { servers, clientRewrites } of sequence) {
        if (fileOf(servers) !== approved) await unapproved(home, declaration, servers);
        const declared = servers.map((s) => s.name).sort();
        const takenDeclared = declared.includes('taken');
        const result = await sync(home, declaration, servers);
        assert.equal(result.code, takenDeclared ? 7 : 0, result.stderr);
        if (/not approved on this machine yet/.test(result.stderr)) approved = fileOf(servers);
        const found = await serversIn(home);
        assert.deepEqual(Object.keys(found.cursor).sort(), [...declared, 'mine'].sort());
        assert.deepEqual(Object.keys(found.vscode).sort(), declared);
        assert.deepEqual(Object.keys(found.codex).sort(), [...new Set([...declared, 'taken'])].sort());
        assert.deepEqual(found.cursor.mine, { command: 'my-server', args: ['--x'] });
        assert.deepEqual(found.codex.taken, { command: 'their-server' });
        const cursorText = await readFile(paths(home)[0]!, 'utf8');
        assert.ok(cursorText.startsWith('{\n  // kept\n  "mcpServers": {\n    "mine": {'), cursorText);
        assert.ok((await readFile(paths(home)[1]!, 'utf8')).startsWith(CODEX_TAKEN));

        const before = await bytesOf(home);
        const again = await runCli(['mcp', 'sync', '--file', declaration], { home, cwd: home });
        assert.equal(again.code, takenDeclared ? 7 : 0, again.stderr);
        if (!takenDeclared) assert.match(again.stderr, /nothing to change/);
        assert.doesNotMatch(again.stderr, /✓|added|updated|removed/);
        assert.deepEqual(await bytesOf(home), before);
        if (clientRewrites) await rewriteAsClient(paths(home)[2]!);
      }
      const last = sequence.at(-1)!.servers;
      const fresh = await freshMachine();
      await sync(fresh.home, fresh.declaration, last);
      assert.deepEqual(await serversIn(home), await serversIn(fresh.home));
    }),
    { numRuns: 20 },
  );
});
