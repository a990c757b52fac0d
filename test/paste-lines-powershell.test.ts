/**
 * The lines svcctl prints on Windows, read by PowerShell's documented rules (helpers/powershell-passing.ts): every
 * `mcp command` line reaches its program with the words intended under Windows PowerShell 5.1 and pwsh 7's three
 * $PSNativeCommandArgumentPassing modes, whether the program is an npm shim (a .ps1 script, then node.exe) or an
 * .exe, and no line carries a JSON argument. Claude Code's line is read back by a model of `claude mcp add`'s options
 * into the entry, which must be the one `svcctl mcp print` shows for the file. `--shell` chooses another shell.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claudeCodeAddCommand } from '../src/mcp/clients/claude-code.js';
import { hintWord } from '../src/mcp/render/shell-quote.js';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientId } from '../src/mcp/types.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { entryRequest } from './helpers/mcp-request.js';
import { tempDir } from './helpers/temp-dirs.js';
import { PASSING_MODES, PROGRAM_KINDS, powershellTokens, receivedArgs } from './helpers/powershell-passing.js';

const BASE = { SERVICE_BASE_URL: 'https://acme.example.com/api', SERVICE_ACCESS_TOKEN: 'tok.en' };
const VARIANTS = [
  ['--mode', 'local'],
  ['--mode', 'remote'],
  ['--mode', 'proxy'],
  ['--mode', 'remote', '--auth', 'bearer', '--token', 'static'],
  ['--mode', 'proxy', '--auth', 'bearer', '--token', 'static'],
];

const windows = (args: string[]) => runCli(['mcp', ...args], { platform: 'win32', env: BASE });

/** `claude mcp add`'s options (`claude mcp add --help`: -s, -t, -e and -H, the last two taking several values). */
function claudeAddEntry(args: string[]): { scope: string; name: string; entry: Record<string, unknown> } {
  assert.deepEqual(args.slice(0, 2), ['mcp', 'add']);
  const options: Record<string, string[]> = { scope: [], transport: [], env: [], header: [] };
  const names: Record<string, string> = {
    '-s': 'scope',
    '--scope': 'scope',
    '-t': 'transport',
    '--transport': 'transport',
  };
  Object.assign(names, { '-e': 'env', '--env': 'env', '-H': 'header', '--header': 'header' });
  const positionals: string[] = [];
  for (let at = 2; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '--') {
      positionals.push(...args.slice(at + 1));
      break;
    }
    const option = names[arg];
    if (option === undefined) {
      assert.ok(!arg.startsWith('-'), `an option claude mcp add does not have: ${arg}`);
      positionals.push(arg);
      continue;
    }
    const variadic = option === 'env' || option === 'header';
    do options[option]!.push(args[++at]!);
    while (variadic && at + 1 < args.length && !args[at + 1]!.startsWith('-'));
  }
  const [name, commandOrUrl, ...rest] = positionals;
  const split = (items: string[], separator: string) =>
    Object.fromEntries(
      items.map((item) => [
        item.slice(0, item.indexOf(separator)).trim(),
        item.slice(item.indexOf(separator) + 1).trim(),
      ]),
    );
  const transport = options.transport![0] ?? 'stdio';
  const entry =
    transport === 'stdio'
      ? { type: 'stdio', command: commandOrUrl, args: rest, env: split(options.env!, '=') }
      : { type: transport, url: commandOrUrl, headers: split(options.header!, ':') };
  return { scope: options.scope![0] ?? 'local', name: name!, entry };
}

describe('the model of PowerShell', () => {
  it("finds the reported bug: add-json's JSON reaches claude without its quotes in 5.1 (vercel/next-devtools-mcp#55)", () => {
    const line = `claude mcp add-json service '{"type":"http","url":"https://acme.example.com/mcp"}'`;
    assert.deepEqual(receivedArgs(line, 'exe', 'Legacy'), [
      'mcp',
      'add-json',
      'service',
      '{type:http,url:https://acme.example.com/mcp}',
    ]);
    assert.deepEqual(
      receivedArgs(line, 'exe', 'Standard').at(-1),
      '{"type":"http","url":"https://acme.example.com/mcp"}',
    );
    assert.deepEqual(receivedArgs(line, 'cmd', 'Windows').at(-1), '{type:http,url:https://acme.example.com/mcp}');
  });

  it('drops a bare -- when it calls a script (npm/cli#4903) and passes a quoted one', () => {
    assert.deepEqual(receivedArgs('claude mcp add x -- npx', 'ps1', 'Standard'), ['mcp', 'add', 'x', 'npx']);
    assert.deepEqual(receivedArgs("claude mcp add x '--' npx", 'ps1', 'Standard'), ['mcp', 'add', 'x', '--', 'npx']);
  });

  it('refuses a line cmd.exe would read as its own: & outside quotes, or %', () => {
    assert.throws(() => receivedArgs("code.cmd 'https://x.example/?a=1&b=2'", 'cmd', 'Windows'), /cmd.exe reads &/);
    assert.throws(() => receivedArgs("code.cmd '%PATH%'", 'cmd', 'Windows'), /cmd.exe expands %/);
  });
});

describe('mcp command on Windows: a PowerShell line every PowerShell passes intact', () => {
  it('every client and mode: the program gets the words of the line in 5.1 and in Legacy, Standard and Windows', async () => {
    let lines = 0;
    for (const client of Object.keys(CLIENTS) as ClientId[]) {
      if (!CLIENTS[client].addCommand) continue;
      for (const variant of VARIANTS) {
        const r = await windows(['command', '--client', client, ...variant]);
        assert.ok(r.code === 0 || r.code === 2, `${client} ${variant.join(' ')}: ${r.stderr}`);
        const line = r.stdout.split('\n')[0]!;
        // A link (cursor://, vscode:) is opened, not run by a shell.
        if (r.code !== 0 || /^[a-z+.-]+:/.test(line)) continue;
        lines++;
        const words = powershellTokens(line).map((word) => word.text);
        for (const kind of PROGRAM_KINDS.filter((k) => k !== 'cmd'))
          for (const mode of PASSING_MODES) {
            const received = receivedArgs(line, kind, mode);
            assert.deepEqual(received, words.slice(1), `${client} ${variant.join(' ')} (${kind}, ${mode}): ${line}`);
            for (const arg of received) assert.doesNotMatch(arg, /^[[{]/, `a JSON argument: ${line}`);
          }
      }
    }
    assert.ok(lines >= 25, `lines checked: ${lines}`);
  });

  it("Claude Code's `claude mcp add` line adds the entry `mcp print` shows for the file, in every mode", async () => {
    for (const variant of VARIANTS) {
      const printed = await windows(['print', '--client', 'claude-code', ...variant, '--json']);
      assert.equal(printed.code, 0, printed.stderr);
      const { entry } = JSON.parse(printed.stdout) as { entry: Record<string, unknown> };
      const r = await windows(['command', '--client', 'claude-code', ...variant]);
      const line = r.stdout.split('\n')[0]!;
      assert.match(line, /^claude mcp add /);
      for (const mode of PASSING_MODES) {
        const added = claudeAddEntry(receivedArgs(line, 'ps1', mode));
        assert.deepEqual(added, { scope: 'user', name: 'service', entry: normalise(entry) }, `${mode}: ${line}`);
      }
    }
  });
});

/** `claude mcp add` writes `env: {}` without -e; svcctl leaves an empty env out. */
function normalise(entry: Record<string, unknown>): Record<string, unknown> {
  if (typeof entry.url === 'string') return { ...entry, headers: entry.headers ?? {} };
  return { ...entry, args: entry.args ?? [], env: entry.env ?? {} };
}

describe('mcp command on Windows: what has no PowerShell line', () => {
  it('Claude Code with a headersHelper: `claude mcp add` has no option for it, so exit 2 pointing at mcp install', () => {
    const request = entryRequest('claude-code', 'remote', 'bearer', { platform: 'win32' });
    const value = { type: 'http', url: 'https://acme.example.com/mcp', headersHelper: 'svcctl token --json-headers' };
    assert.throws(
      () => claudeCodeAddCommand(request, { value, literalSecrets: false, variablesToExport: [], notes: [] }),
      /`claude mcp add` has no option for headersHelper/,
    );
  });

  it('VS Code and Insiders: the install link only, and a note that says why', async () => {
    for (const client of ['vscode', 'vscode-insiders']) {
      const r = await windows(['command', '--client', client, '--mode', 'remote']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^vscode(-insiders)?:mcp\/install\?/);
      assert.doesNotMatch(r.stdout, /--add-mcp/);
      assert.match(r.stderr, /no `code(-insiders)? --add-mcp` line for PowerShell, which strips the double quotes/);
    }
  });

  it('auggie (add-json only) is exit 2, pointing at mcp install', async () => {
    const r = await windows(['command', '--client', 'auggie', '--mode', 'remote']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /auggie mcp add-json` takes the entry as JSON, whose inner " Windows PowerShell 5.1 strips/);
    assert.match(r.stderr, /hint: use svcctl mcp install --client auggie/);
    assert.equal(r.stdout, '');
  });

  it('a value with a double quote is exit 2: 5.1 would strip it (the value is not shown)', async () => {
    const email = 'a"b@acme.example';
    const args = ['command', '--client', 'gemini', '--mode', 'local', '--secrets', 'literal', '--email', email];
    const r = await runCli(['mcp', ...args, '--password-stdin', '--show-secrets'], {
      platform: 'win32',
      env: BASE,
      input: 'pw\n',
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /a value holds a double quote, which Windows PowerShell 5.1 strips/);
    assert.ok(!r.stderr.includes(email));
  });
});

describe('--shell and the lines around the command', () => {
  const bearer = ['command', '--client', 'claude-code', '--mode', 'remote', '--auth', 'bearer', '--token', 'static'];

  it('Linux and macOS keep add-json (bash, zsh and fish read it alike); --shell powershell gives the add form', async () => {
    const linux = await runCli(['mcp', ...bearer], { env: BASE, platform: 'linux' });
    assert.match(linux.stdout, /^claude mcp add-json service '\{"type":"http"/);
    const mac = await runCli(['mcp', ...bearer, '--shell', 'powershell'], { env: BASE, platform: 'darwin' });
    assert.match(
      mac.stdout,
      /^claude mcp add --scope user --transport http service https:\/\/acme\.example\.com\/mcp --header 'Authorization: Bearer \$\{SERVICE_ACCESS_TOKEN\}'\n/,
    );
    const gitBash = await windows([...bearer, '--shell', 'bash']);
    assert.match(gitBash.stdout, /^claude mcp add-json service '\{/);
  });

  it('the token line in the shell asked for: $env: on Windows, export in bash, set -gx in fish', async () => {
    const cases: [NodeJS.Platform, string[], string][] = [
      ['win32', [], '`$env:SERVICE_ACCESS_TOKEN = (svcctl token)`'],
      ['linux', [], '`export SERVICE_ACCESS_TOKEN="$(svcctl token)"`'],
      ['linux', ['--shell', 'zsh'], '`export SERVICE_ACCESS_TOKEN="$(svcctl token)"`'],
      ['darwin', ['--shell', 'fish'], '`set -gx SERVICE_ACCESS_TOKEN (svcctl token)`'],
      ['linux', ['--shell', 'powershell'], '`$env:SERVICE_ACCESS_TOKEN = (svcctl token)`'],
    ];
    for (const [platform, shell, expected] of cases) {
      const r = await runCli(['mcp', ...bearer, ...shell], { env: BASE, platform });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderr.includes(`then ${expected} and restart the client`), `${platform} ${shell}: ${r.stderr}`);
      assert.match(
        r.stderr,
        platform === 'win32' || shell[1] === 'powershell' ? /^set before/m : /^(export|set -gx) before/m,
      );
    }
  });

  it('Codex on Windows: "Bearer " and the token in one variable, in PowerShell', async () => {
    const r = await windows([
      'command',
      '--client',
      'codex',
      '--mode',
      'proxy',
      '--auth',
      'bearer',
      '--token',
      'static',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stderr.includes('`$env:SERVICE_AUTH_HEADER = "Bearer $(svcctl token)"` again'), r.stderr);
  });

  it('an unknown shell is exit 2 with the choices', async () => {
    const r = await windows([...bearer, '--shell', 'tcsh']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bash, zsh, fish, powershell/);
  });
});

describe("mcp doctor's advice in the platform's words", () => {
  it('a variable not set: "set …" on Windows, "export …" elsewhere', async () => {
    const dir = await tempDir('svcctl-doctor-shell-');
    const file = join(dir, 'mcp.json');
    const entry = {
      type: 'http',
      url: 'https://acme.example.com/mcp',
      headers: { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    };
    await writeFile(file, JSON.stringify({ mcpServers: { service: entry } }));
    const doctor = ['mcp', 'doctor', '--client', 'claude-code', '--config', file, '--scope', 'project'];
    const onWindows = await runCli(doctor, { platform: 'win32', env: {} });
    assert.match(
      onWindows.stdout + onWindows.stderr,
      /fix: set SERVICE_ACCESS_TOKEN in the environment the client starts from/,
    );
    const onLinux = await runCli(doctor, { platform: 'linux', env: {} });
    assert.match(
      onLinux.stdout + onLinux.stderr,
      /fix: export SERVICE_ACCESS_TOKEN in the environment the client starts from/,
    );
  });
});

describe('the commands `mcp sync` names in its hints, on Windows', () => {
  it('reach svcctl with the file and names intact under every passing mode (a profile folder with an apostrophe)', () => {
    const words = ["C:\\Users\\O'Brien\\repo\\svcctl-mcp.toml", 'ops', 'C:\\work\\my repo'];
    const line = `svcctl mcp sync --file ${words.map((word) => hintWord(word, 'win32')).join(' ')}`;
    for (const kind of PROGRAM_KINDS)
      for (const mode of PASSING_MODES)
        assert.deepEqual(receivedArgs(line, kind, mode).slice(-3), words, `${kind} ${mode}: ${line}`);
  });
});
