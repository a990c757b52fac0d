/**
 * NODE_EXTRA_CA_CERTS (a corporate CA) in local and proxy entries: by reference in each client's own syntax,
 * forwarded by name (Codex, Goose), or as its path where the client expands nothing; and doctor's `ca` check.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { runCli, type RunResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

// A real file: install copies only an absolute path to a file it can read (issue 47).
const CA = join(await tempDir('svcctl-ca-file-'), 'inspecting-proxy-ca.pem');
await writeFile(CA, '-----BEGIN CERTIFICATE-----\n');
const BASE = ['--base-url', 'https://x.example/api'];
const PROXY = ['--mode', 'proxy', '--mcp-url', 'https://x.example/mcp'];
const LITERAL = ['--secrets', 'literal'];
const CREDS = { SERVICE_EMAIL: 'ca@example.com', SERVICE_PASSWORD: 'ca-Secret-7' };

async function printed(args: string[], env: Record<string, string> = { NODE_EXTRA_CA_CERTS: CA }): Promise<string> {
  const result = await runCli(['mcp', 'print', ...args], { env: { ...CREDS, ...env } });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

type Entry = Record<string, unknown>;
const json = (text: string, key = 'mcpServers'): Entry => JSON.parse(text)[key].service;
const envOf = (entry: Entry, field = 'env'): Record<string, string> => entry[field] as Record<string, string>;

describe('mcp install/print: local and proxy entries carry NODE_EXTRA_CA_CERTS', () => {
  it("in each client's reference syntax, or its path where the client expands none", async () => {
    assert.equal(
      envOf(json(await printed(['--client', 'claude-code', ...BASE]))).NODE_EXTRA_CA_CERTS,
      '${NODE_EXTRA_CA_CERTS}',
    );
    assert.equal(
      envOf(json(await printed(['--client', 'gemini', ...PROXY]))).NODE_EXTRA_CA_CERTS,
      '${NODE_EXTRA_CA_CERTS}',
    );
    assert.equal(
      envOf(json(await printed(['--client', 'cursor', ...BASE]))).NODE_EXTRA_CA_CERTS,
      '${env:NODE_EXTRA_CA_CERTS}',
    );
    assert.equal(envOf(json(await printed(['--client', 'claude-desktop', ...BASE]))).NODE_EXTRA_CA_CERTS, CA);
    assert.equal(envOf(json(await printed(['--client', 'zed', ...PROXY]), 'context_servers')).NODE_EXTRA_CA_CERTS, CA);
    const opencode = JSON.parse(await printed(['--client', 'opencode', ...BASE])).mcp.service;
    assert.equal(envOf(opencode, 'environment').NODE_EXTRA_CA_CERTS, '{env:NODE_EXTRA_CA_CERTS}');
  });

  it('--secrets literal writes the path: that entry needs nothing from the environment', async () => {
    assert.equal(envOf(json(await printed(['--client', 'claude-code', ...BASE, ...LITERAL]))).NODE_EXTRA_CA_CERTS, CA);
  });

  it('Codex and Goose forward it by name with references, and write it with literal values', async () => {
    const codex = parseToml(await printed(['--client', 'codex', ...BASE])) as { mcp_servers: Record<string, Entry> };
    assert.ok((codex.mcp_servers.service!.env_vars as string[]).includes('NODE_EXTRA_CA_CERTS'));
    assert.equal(envOf(codex.mcp_servers.service!).NODE_EXTRA_CA_CERTS, undefined);
    const literal = parseToml(await printed(['--client', 'codex', ...PROXY, ...LITERAL])) as {
      mcp_servers: Record<string, Entry>;
    };
    assert.equal(envOf(literal.mcp_servers.service!).NODE_EXTRA_CA_CERTS, CA);
    const goose = parseYaml(await printed(['--client', 'goose', ...BASE])) as { extensions: Record<string, Entry> };
    assert.ok((goose.extensions.service!.env_keys as string[]).includes('NODE_EXTRA_CA_CERTS'));
  });

  it('the files of no client take it too: ${…} in mcpServers, the path in TOML', async () => {
    const generic = JSON.parse(await printed(['--format', 'mcpServers', ...PROXY, '--secrets', 'ref'])).mcpServers
      .service;
    assert.equal(envOf(generic).NODE_EXTRA_CA_CERTS, '${NODE_EXTRA_CA_CERTS}');
    const toml = parseToml(await printed(['--format', 'toml', ...BASE, ...LITERAL])) as {
      mcp_servers: Record<string, Entry>;
    };
    assert.equal(envOf(toml.mcp_servers.service!).NODE_EXTRA_CA_CERTS, CA);
  });

  it('not in a remote entry (nothing starts there), nor when the variable is unset or empty', async () => {
    const remote = json(
      await printed(['--client', 'cursor', '--mode', 'remote', '--mcp-url', 'https://x.example/mcp']),
    );
    assert.equal(remote.env, undefined);
    assert.equal(JSON.stringify(remote).includes('NODE_EXTRA_CA_CERTS'), false);
    const unset = envOf(json(await printed(['--client', 'claude-code', ...BASE], {})));
    assert.equal(Object.hasOwn(unset, 'NODE_EXTRA_CA_CERTS'), false);
    const empty = envOf(json(await printed(['--client', 'claude-code', ...BASE], { NODE_EXTRA_CA_CERTS: '' })));
    assert.equal(Object.hasOwn(empty, 'NODE_EXTRA_CA_CERTS'), false);
    // The positive case of the same run, so that this test fails where the variable is never carried.
    assert.equal(
      envOf(json(await printed(['--client', 'claude-code', ...BASE]))).NODE_EXTRA_CA_CERTS,
      '${NODE_EXTRA_CA_CERTS}',
    );
  });
});

describe('a NODE_EXTRA_CA_CERTS that no entry can use is not copied (issue 47)', () => {
  it('relative, with a line break, missing or a folder: left out; the same run with the file carries it', async () => {
    const caFolder = join(CA, '..');
    const cases = ['corp-ca.pem', `${CA}\nx = 1`, join(caFolder, 'missing.pem'), caFolder];
    for (const value of cases) {
      const entry = envOf(json(await printed(['--client', 'claude-desktop', ...BASE], { NODE_EXTRA_CA_CERTS: value })));
      assert.equal(Object.hasOwn(entry, 'NODE_EXTRA_CA_CERTS'), false, JSON.stringify(value));
    }
    assert.equal(envOf(json(await printed(['--client', 'claude-desktop', ...BASE]))).NODE_EXTRA_CA_CERTS, CA);
  });
});

describe('--token helper entries: svcctl mcp proxy makes its own TLS requests', () => {
  const HELPER = ['--mode', 'proxy', '--auth', 'bearer', '--token', 'helper', ...BASE];

  it("a `svcctl mcp proxy` entry carries it; Claude Code's headers command runs in its shell and gets none", async () => {
    const gemini = json(await printed(['--client', 'gemini', ...HELPER]));
    assert.ok((gemini.args as string[]).includes('proxy'), String(gemini.args));
    assert.deepEqual(envOf(gemini), { NODE_EXTRA_CA_CERTS: '${NODE_EXTRA_CA_CERTS}' });
    const claude = json(
      await printed(['--client', 'claude-code', '--mode', 'remote', '--auth', 'bearer', '--token', 'helper', ...BASE]),
    );
    assert.equal(typeof claude.headersHelper, 'string');
    assert.equal(JSON.stringify(claude).includes('NODE_EXTRA_CA_CERTS'), false);
  });
});

// An npx that fails at once: the ca check reads the entry and this environment, never what npx does, and the real
// npx (even offline) costs most of a second of npm start-up per doctor run.
const failingNpx = await tempDir('svcctl-ca-bin-');
await writeFile(join(failingNpx, 'npx'), '#!/bin/sh\nexit 1\n');
await chmod(join(failingNpx, 'npx'), 0o755);
const FAILING_NPX_PATH = `${failingNpx}${delimiter}${process.env.PATH}`;

const lineOf = (result: RunResult, name: string): string =>
  result.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? '';

describe('mcp doctor: an entry that would lose NODE_EXTRA_CA_CERTS', () => {
  const env = { ...CREDS, NODE_EXTRA_CA_CERTS: CA, PATH: FAILING_NPX_PATH };
  const entry = {
    command: 'npx',
    args: ['-y', 'service-mcp-server@latest'],
    env: { SERVICE_EMAIL: '${SERVICE_EMAIL}' },
  };

  async function doctor(
    client: string,
    file: string,
    written: Entry,
    runEnv: Record<string, string> = env,
  ): Promise<RunResult> {
    const home = await tempDir('svcctl-ca-');
    await mkdir(join(home, file, '..'), { recursive: true });
    await writeFile(join(home, file), JSON.stringify({ mcpServers: { service: written } }));
    return runCli(['mcp', 'doctor', '--client', client], { home, env: runEnv });
  }

  it('Gemini CLI (it cleans the environment): ca fails and names the reinstall; an entry with it passes', async () => {
    const gemini = await doctor('gemini', '.gemini/settings.json', entry);
    assert.match(
      lineOf(gemini, 'ca'),
      /^✗ ca: NODE_EXTRA_CA_CERTS is set here, but the entry does not carry it, and Gemini CLI may start the server with a cleaned environment/,
    );
    assert.match(gemini.stdout, /fix: svcctl mcp install --client gemini --force/);
    assert.equal(gemini.code, 8, gemini.stderr);

    const carried = { ...entry, env: { ...entry.env, NODE_EXTRA_CA_CERTS: '${NODE_EXTRA_CA_CERTS}' } };
    const fixed = await doctor('gemini', '.gemini/settings.json', carried);
    assert.match(lineOf(fixed, 'ca'), /^✓ ca: the entry passes NODE_EXTRA_CA_CERTS on to the server$/);
  });

  it("an entry's own value is compared with the one here: another path, or one that cannot be read, fails", async () => {
    const other = join(CA, '..', 'other-ca.pem');
    await writeFile(other, '-----BEGIN CERTIFICATE-----\n');
    const differs = await doctor('gemini', '.gemini/settings.json', { ...entry, env: { NODE_EXTRA_CA_CERTS: other } });
    assert.match(
      lineOf(differs, 'ca'),
      new RegExp(`^✗ ca: the entry sets NODE_EXTRA_CA_CERTS=${other}, but here it is ${CA}$`),
    );
    const relative = await doctor('gemini', '.gemini/settings.json', {
      ...entry,
      env: { NODE_EXTRA_CA_CERTS: 'ca.pem' },
    });
    assert.match(
      lineOf(relative, 'ca'),
      /^✗ ca: the entry sets NODE_EXTRA_CA_CERTS="ca.pem", but it is not an absolute path$/,
    );
    // Unset here, a reference in the entry resolves to nothing: no ca check (the variables check speaks).
    const reference = { ...entry, env: { NODE_EXTRA_CA_CERTS: '${NODE_EXTRA_CA_CERTS}' } };
    assert.equal(
      lineOf(await doctor('gemini', '.gemini/settings.json', reference, { ...CREDS, PATH: FAILING_NPX_PATH }), 'ca'),
      '',
    );
    const same = await doctor('gemini', '.gemini/settings.json', { ...entry, env: { NODE_EXTRA_CA_CERTS: CA } });
    assert.match(lineOf(same, 'ca'), /^✓ ca: the entry passes NODE_EXTRA_CA_CERTS on to the server$/);
  });

  it("svcctl's proxy against plain http starts nothing over TLS: ca is a note, whatever the entry holds", async () => {
    const proxy = { command: 'svcctl', args: ['--base-url', 'http://127.0.0.1:9', 'mcp', 'proxy'] };
    const result = await doctor('gemini', '.gemini/settings.json', proxy);
    assert.match(lineOf(result, 'ca'), /^✓ ca: not needed \(note\): the entry makes no TLS connection/);
    // Through npx, the same proxy downloads svcctl from the registry over TLS: the check speaks.
    const npx = { command: 'npx', args: ['-y', 'svcctl@1', '--base-url', 'http://127.0.0.1:9', 'mcp', 'proxy'] };
    assert.match(lineOf(await doctor('gemini', '.gemini/settings.json', npx), 'ca'), /^✗ ca: /);
  });

  it('Claude Code passes its whole environment: the same entry passes', async () => {
    const claude = await doctor('claude-code', '.claude.json', entry);
    assert.match(lineOf(claude, 'ca'), /^✓ ca: Claude Code passes its whole environment/);
  });
});
