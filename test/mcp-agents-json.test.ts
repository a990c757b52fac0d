/**
 * Golden entries, paths and `mcp add` lines of the JSON CLI agents of issue 9
 * (Copilot CLI, Qwen Code, auggie, Factory droid, Amp, Crush), written by hand
 * from what each client's own `mcp add` wrote and its source says
 * (docs/clients-agents.md), per mode × auth, with Windows paths computed on Linux.
 */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { clientCommand } from '../src/mcp/clients/add-commands.js';
import { CLIENTS } from '../src/mcp/clients/table.js';
import { entryRuleFailure } from '../src/mcp/doctor/client-rules.js';
import { planEntry } from '../src/mcp/doctor/entry-plan.js';
import { referenceSyntaxOf, Resolver } from '../src/mcp/doctor/references.js';
import { defaultSecrets, renderEntry } from '../src/mcp/clients/render-entry.js';
import type { AuthMethod, ClientId, EntryRequest, Mode, Scope } from '../src/mcp/types.js';
import {
  BASE,
  entryRequest,
  LINUX as linux,
  MAC as mac,
  MCP,
  onlyFiles,
  renderValue,
  WIN as win,
  mcpRemoteArgs,
  MCP_REMOTE_BEARER_ARGS,
} from './helpers/mcp-request.js';

const request = entryRequest;
const render = renderValue;
const command = (client: ClientId, mode: Mode, auth: AuthMethod = 'password', extra: Partial<EntryRequest> = {}) => {
  const req = request(client, mode, auth, extra);
  return clientCommand(CLIENTS[client], req, renderEntry(req)).command;
};

const LOCAL = ['-y', 'service-mcp-server@latest'];
const REF_ENV = { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}', SERVICE_BASE_URL: BASE };
const REF_HEADERS = { 'X-Service-Email': '${SERVICE_EMAIL}', 'X-Service-Password': '${SERVICE_PASSWORD}' };
const BEARER = { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' };
const PROXY = mcpRemoteArgs();
const PROXY_BEARER = MCP_REMOTE_BEARER_ARGS;
const ESCAPED = (name: string) => `\${SVCCTL_LITERAL_DOLLAR:-$}{${name}}`;

test('every new JSON agent takes ${VAR} references by default', () => {
  for (const id of ['copilot', 'qwen', 'auggie', 'droid', 'amp', 'crush'] as const)
    assert.equal(defaultSecrets({ client: id }), 'ref', id);
});

describe('GitHub Copilot CLI: tools ["*"], type local | http (what `copilot mcp add` 1.0.102 writes)', () => {
  it('local, remote, proxy', () => {
    assert.deepEqual(render('copilot', 'local'), {
      type: 'local',
      command: 'npx',
      args: LOCAL,
      env: REF_ENV,
      tools: ['*'],
    });
    assert.deepEqual(render('copilot', 'remote'), { type: 'http', url: MCP, headers: REF_HEADERS, tools: ['*'] });
    assert.deepEqual(render('copilot', 'remote', 'bearer'), { type: 'http', url: MCP, headers: BEARER, tools: ['*'] });
    assert.deepEqual(render('copilot', 'proxy'), {
      type: 'local',
      command: 'npx',
      args: PROXY,
      env: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
      tools: ['*'],
    });
    assert.deepEqual(render('copilot', 'proxy', 'bearer', { platform: 'win32' }), {
      type: 'local',
      command: 'cmd',
      args: ['/c', 'npx', ...PROXY_BEARER],
      env: { SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
      tools: ['*'],
    });
  });
  it('copilot mcp add lines', () => {
    assert.equal(
      command('copilot', 'remote', 'bearer'),
      `copilot mcp add --transport http service ${MCP} --header 'Authorization: Bearer \${SERVICE_ACCESS_TOKEN}'`,
    );
    assert.equal(
      command('copilot', 'local'),
      `copilot mcp add service --env 'SERVICE_EMAIL=\${SERVICE_EMAIL}' --env 'SERVICE_PASSWORD=\${SERVICE_PASSWORD}' --env SERVICE_BASE_URL=${BASE} -- npx -y service-mcp-server@latest`,
    );
  });
});

describe('Qwen Code: httpUrl for Streamable HTTP, proxy headers from SVCCTL_HEADER_ variables', () => {
  it('local, remote, proxy', () => {
    assert.deepEqual(render('qwen', 'local'), { command: 'npx', args: LOCAL, env: REF_ENV });
    assert.deepEqual(render('qwen', 'remote'), { httpUrl: MCP, headers: REF_HEADERS });
    assert.deepEqual(render('qwen', 'remote', 'bearer'), { httpUrl: MCP, headers: BEARER });
    assert.deepEqual(render('qwen', 'proxy'), {
      command: 'npx',
      args: mcpRemoteArgs('${SVCCTL_HEADER_SERVICE_EMAIL}', '${SVCCTL_HEADER_SERVICE_PASSWORD}'),
      env: { SVCCTL_HEADER_SERVICE_EMAIL: '${SERVICE_EMAIL}', SVCCTL_HEADER_SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
    });
    assert.deepEqual(render('qwen', 'proxy', 'bearer', { secrets: 'literal' }), {
      command: 'npx',
      args: ['mcp-remote', MCP, '--header', 'Authorization:${SVCCTL_HEADER_SERVICE_AUTH_HEADER}'],
      env: { SVCCTL_HEADER_SERVICE_AUTH_HEADER: 'Bearer tok.en' },
    });
  });
  it('doctor resolves the proxy entry as Qwen Code and mcp-remote would', () => {
    const entry = render('qwen', 'proxy');
    const resolver = new Resolver({ SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'pw' });
    const plan = planEntry(
      entry,
      referenceSyntaxOf(CLIENTS.qwen),
      resolver,
      { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'pw' },
      CLIENTS.qwen,
    );
    assert.ok(typeof plan !== 'string' && plan.mode === 'proxy');
    assert.deepEqual(plan.http?.headers, { 'X-Service-Email': 'ann@acme.example', 'X-Service-Password': 'pw' });
    assert.ok(
      plan.command.args.includes('X-Service-Email:${SVCCTL_HEADER_SERVICE_EMAIL}'),
      'Qwen Code leaves the header argument for mcp-remote',
    );
    assert.deepEqual([...resolver.missing], []);
  });
  it('doctor fails a url entry (SSE for Qwen Code) and passes httpUrl', () => {
    const check = (entry: Record<string, unknown>) => {
      const plan = planEntry(entry, referenceSyntaxOf(CLIENTS.qwen), new Resolver({}), {}, CLIENTS.qwen);
      assert.ok(typeof plan !== 'string');
      return entryRuleFailure(CLIENTS.qwen, 'service', entry, plan);
    };
    const failure = check({ type: 'http', url: MCP });
    assert.match(failure?.detail ?? '', /Qwen Code reads `url` as SSE/);
    assert.match(
      failure?.fix ?? '',
      /rename url to httpUrl, or reinstall: svcctl mcp install --client qwen --mode remote --force/,
    );
    assert.equal(check(render('qwen', 'remote')), undefined);
  });
  it('qwen mcp add lines (positionals first)', () => {
    assert.equal(
      command('qwen', 'remote', 'password', { scope: 'project' }),
      `qwen mcp add service ${MCP} -s project -t http -H 'X-Service-Email: \${SERVICE_EMAIL}' -H 'X-Service-Password: \${SERVICE_PASSWORD}'`,
    );
    assert.equal(
      command('qwen', 'local'),
      `qwen mcp add service npx -s user -e 'SERVICE_EMAIL=\${SERVICE_EMAIL}' -e 'SERVICE_PASSWORD=\${SERVICE_PASSWORD}' -e SERVICE_BASE_URL=${BASE} -- -y service-mcp-server@latest`,
    );
  });
});

describe('auggie: type stdio | http; ${VAR} expanded in args too, so proxy headers write ${ escaped', () => {
  it('local, remote, proxy', () => {
    assert.deepEqual(render('auggie', 'local'), { type: 'stdio', command: 'npx', args: LOCAL, env: REF_ENV });
    assert.deepEqual(render('auggie', 'remote'), { type: 'http', url: MCP, headers: REF_HEADERS });
    assert.deepEqual(render('auggie', 'remote', 'bearer'), { type: 'http', url: MCP, headers: BEARER });
    assert.deepEqual(render('auggie', 'proxy'), {
      type: 'stdio',
      command: 'npx',
      args: [
        'mcp-remote',
        MCP,
        '--header',
        `X-Service-Email:${ESCAPED('SERVICE_EMAIL')}`,
        '--header',
        `X-Service-Password:${ESCAPED('SERVICE_PASSWORD')}`,
      ],
      env: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
    });
  });
  it('auggie mcp add-json with the scope flag', () => {
    assert.equal(
      command('auggie', 'remote', 'bearer', { scope: 'local' }),
      `auggie mcp add-json service '{"type":"http","url":"${MCP}","headers":{"Authorization":"Bearer \${SERVICE_ACCESS_TOKEN}"}}' --local`,
    );
  });
});

describe('Factory droid: type stdio | http; args passed as written', () => {
  it('local, remote, proxy', () => {
    assert.deepEqual(render('droid', 'local'), { type: 'stdio', command: 'npx', args: LOCAL, env: REF_ENV });
    assert.deepEqual(render('droid', 'remote', 'bearer'), { type: 'http', url: MCP, headers: BEARER });
    assert.deepEqual(render('droid', 'proxy'), {
      type: 'stdio',
      command: 'npx',
      args: PROXY,
      env: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
    });
  });
  it('droid mcp add lines; proxy refused (droid expands ${VAR} in args when it adds them)', () => {
    assert.equal(
      command('droid', 'remote', 'bearer'),
      `droid mcp add service ${MCP} --type http --header 'Authorization: Bearer \${SERVICE_ACCESS_TOKEN}'`,
    );
    assert.throws(() => command('droid', 'proxy'), /expands \$\{VAR\} in the arguments/);
  });
});

describe('Amp: the flat "amp.mcpServers" key, url without type', () => {
  it('local, remote, proxy', () => {
    assert.deepEqual(render('amp', 'local'), { command: 'npx', args: LOCAL, env: REF_ENV });
    assert.deepEqual(render('amp', 'remote'), { url: MCP, headers: REF_HEADERS });
    assert.deepEqual(render('amp', 'proxy', 'bearer'), {
      command: 'npx',
      args: PROXY_BEARER,
      env: { SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    });
    assert.deepEqual(CLIENTS.amp.entryPath('service', 'user', linux), ['amp.mcpServers', 'service']);
  });
  it('amp mcp add lines (headers as KEY=VALUE, --workspace for the project)', () => {
    assert.equal(
      command('amp', 'remote', 'bearer', { scope: 'project' }),
      `amp mcp add service --workspace --header 'Authorization=Bearer \${SERVICE_ACCESS_TOKEN}' ${MCP}`,
    );
  });
});

describe('Crush: mcp key, type stdio | http, shell expansion everywhere (proxy ${ escaped)', () => {
  it('local, remote, proxy', () => {
    assert.deepEqual(render('crush', 'local'), { type: 'stdio', command: 'npx', args: LOCAL, env: REF_ENV });
    assert.deepEqual(render('crush', 'remote', 'bearer'), { type: 'http', url: MCP, headers: BEARER });
    assert.deepEqual(render('crush', 'proxy', 'bearer'), {
      type: 'stdio',
      command: 'npx',
      args: ['mcp-remote', MCP, '--header', `Authorization:${ESCAPED('SERVICE_AUTH_HEADER')}`],
      env: { SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    });
    assert.deepEqual(CLIENTS.crush.entryPath('service', 'user', linux), ['mcp', 'service']);
    assert.throws(() => command('crush', 'local'), /Crush has no command line or install link/);
  });
});

const paths: Record<string, Partial<Record<Scope, [string, string, string]>>> = {
  copilot: {
    user: [
      '/Users/ann/.copilot/mcp-config.json',
      '/home/ann/.copilot/mcp-config.json',
      'C:\\Users\\ann\\.copilot\\mcp-config.json',
    ],
    project: [
      '/Users/ann/proj/.github/mcp.json',
      '/home/ann/proj/.github/mcp.json',
      'C:\\work\\proj\\.github\\mcp.json',
    ],
  },
  qwen: {
    user: ['/Users/ann/.qwen/settings.json', '/home/ann/.qwen/settings.json', 'C:\\Users\\ann\\.qwen\\settings.json'],
    project: [
      '/Users/ann/proj/.qwen/settings.json',
      '/home/ann/proj/.qwen/settings.json',
      'C:\\work\\proj\\.qwen\\settings.json',
    ],
  },
  auggie: {
    user: [
      '/Users/ann/.augment/settings.json',
      '/home/ann/.augment/settings.json',
      'C:\\Users\\ann\\.augment\\settings.json',
    ],
    project: [
      '/Users/ann/proj/.augment/settings.json',
      '/home/ann/proj/.augment/settings.json',
      'C:\\work\\proj\\.augment\\settings.json',
    ],
    local: [
      '/Users/ann/proj/.augment/settings.local.json',
      '/home/ann/proj/.augment/settings.local.json',
      'C:\\work\\proj\\.augment\\settings.local.json',
    ],
  },
  droid: {
    user: ['/Users/ann/.factory/mcp.json', '/home/ann/.factory/mcp.json', 'C:\\Users\\ann\\.factory\\mcp.json'],
    project: [
      '/Users/ann/proj/.factory/mcp.json',
      '/home/ann/proj/.factory/mcp.json',
      'C:\\work\\proj\\.factory\\mcp.json',
    ],
  },
  amp: {
    user: [
      '/Users/ann/.config/amp/settings.json',
      '/home/ann/.config/amp/settings.json',
      'C:\\Users\\ann\\.config\\amp\\settings.json',
    ],
    project: [
      '/Users/ann/proj/.amp/settings.json',
      '/home/ann/proj/.amp/settings.json',
      'C:\\work\\proj\\.amp\\settings.json',
    ],
  },
  crush: {
    user: [
      '/Users/ann/.config/crush/crush.json',
      '/home/ann/.config/crush/crush.json',
      'C:\\Users\\ann\\.config\\crush\\crush.json',
    ],
    project: ['/Users/ann/proj/.crush.json', '/home/ann/proj/.crush.json', 'C:\\work\\proj\\.crush.json'],
  },
};

for (const [id, scopes] of Object.entries(paths)) {
  test(`${id}: files per scope on macOS, Linux and Windows, and its scopes`, () => {
    const client = CLIENTS[id as ClientId];
    assert.deepEqual([...client.scopes], Object.keys(scopes));
    for (const [scope, [darwinPath, linuxPath, winPath]] of Object.entries(scopes) as [
      Scope,
      [string, string, string],
    ][]) {
      assert.equal(client.configPath(mac, scope), darwinPath, `${id} ${scope} macOS`);
      assert.equal(client.configPath(linux, scope), linuxPath, `${id} ${scope} Linux`);
      assert.equal(client.configPath(win, scope), winPath, `${id} ${scope} Windows`);
    }
  });
}

test('COPILOT_HOME, QWEN_HOME, CRUSH_GLOBAL_CONFIG and XDG_CONFIG_HOME move the files; an existing crush.json is kept', () => {
  assert.equal(CLIENTS.copilot.configPath({ ...linux, env: { COPILOT_HOME: '/ch' } }, 'user'), '/ch/mcp-config.json');
  assert.equal(CLIENTS.qwen.configPath({ ...linux, env: { QWEN_HOME: '/qh' } }, 'user'), '/qh/settings.json');
  assert.equal(CLIENTS.crush.configPath({ ...linux, env: { CRUSH_GLOBAL_CONFIG: '/cg' } }, 'user'), '/cg/crush.json');
  assert.equal(
    CLIENTS.crush.configPath({ ...linux, env: { XDG_CONFIG_HOME: '/xdg' } }, 'user'),
    '/xdg/crush/crush.json',
  );
  assert.equal(
    CLIENTS.crush.configPath({ ...linux, fs: onlyFiles('/home/ann/proj/crush.json') }, 'project'),
    '/home/ann/proj/crush.json',
  );
});
