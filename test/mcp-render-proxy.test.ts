/**
 * Proxy entries (mcp-remote) followed through the two expansions they go
 * through: the client's own ${VAR} expansion (args and env), then mcp-remote's
 * expansion of ${VAR} in --header values from the environment it was started
 * with. The expansion functions are copied from the clients themselves, not
 * from our code: Claude Code 2.1.197 (`Jre` in its binary), Gemini CLI 0.61.0
 * (packages/cli/src/utils/envVarResolver.ts), mcp-remote 0.1.38 (header
 * substitution in parseCommandLineArgs). The checks: the server gets the right
 * header values, and no secret is in mcp-remote's argv (the process list).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderEntry } from '../src/mcp/clients/render-entry.js';
import type { AuthMethod, ClientId, EntryRequest, SecretsHow } from '../src/mcp/types.js';

type Env = Record<string, string | undefined>;

// Claude Code 2.1.197: one pass; set → value, unset with default → default, unset → kept.
function claudeCodeExpand(value: string, env: Env): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?)\}/g, (match, content: string) => {
    const split = content.indexOf(':-');
    const name = split === -1 ? content : content.slice(0, split);
    const fallback = split === -1 ? undefined : content.slice(split + 2);
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    return match;
  });
}

// Gemini CLI 0.61.0 resolveEnvVarsInString (settings load: the whole file, args included).
function geminiExpand(value: string, env: Env): string {
  return value.replace(
    /\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g,
    (match, name1?: string, name2?: string, fallback?: string) => {
      const name = name1 || name2 || '';
      if (!name) return match;
      const set = env[name];
      if (typeof set === 'string') return set;
      if (fallback !== undefined) return fallback;
      return match;
    },
  );
}

// mcp-remote 0.1.38: `Name:value` with optional space; ${VAR} from its own env, missing → ''.
function mcpRemoteHeaders(argv: string[], env: Env): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--header') continue;
    const match = argv[i + 1]!.match(/^([A-Za-z0-9_-]+):\s*(.*)$/);
    if (match) headers[match[1]!] = match[2]!.replace(/\$\{([^}]+)}/g, (_m, name: string) => env[name] || '');
  }
  return headers;
}

const MCP = 'https://acme.example.com/mcp';
const SECRETS = { email: 'ann@acme.example', password: 'p4ss word', token: 'tok.en' };
// What the user exported in the shell the client starts from.
const CLIENT_ENV: Env = {
  SERVICE_EMAIL: SECRETS.email,
  SERVICE_PASSWORD: SECRETS.password,
  SERVICE_ACCESS_TOKEN: SECRETS.token,
};

function entry(client: ClientId, auth: AuthMethod, secrets: SecretsHow, platform: NodeJS.Platform = 'linux') {
  const request: EntryRequest = {
    target: { client },
    mode: 'proxy',
    auth,
    name: 'service',
    scope: 'project',
    baseUrl: 'https://acme.example.com/api',
    mcpUrl: MCP,
    package: 'service-mcp-server',
    secrets,
    literals: SECRETS,
    platform,
  };
  return renderEntry(request).value as { command: string; args: string[]; env?: Record<string, string> };
}

/** argv and headers as mcp-remote sees them, for a client that expands with `expand`. */
function run(
  value: ReturnType<typeof entry>,
  expand: (value: string, env: Env) => string,
  clientEnv: Env,
  inherit: boolean,
) {
  const argv = value.args.map((arg) => expand(arg, clientEnv));
  const blockEnv = Object.fromEntries(
    Object.entries(value.env ?? {}).map(([key, item]) => [key, expand(item, clientEnv)]),
  );
  // Gemini drops inherited *PASSWORD*/*TOKEN* variables unless the entry lists them: inherit=false.
  const childEnv = { ...(inherit ? clientEnv : {}), ...blockEnv };
  return { argv, headers: mcpRemoteHeaders(argv, childEnv) };
}

const PASSWORD_HEADERS = { 'X-Service-Email': SECRETS.email, 'X-Service-Password': SECRETS.password };
const BEARER_HEADERS = { Authorization: `Bearer ${SECRETS.token}` };

function assertNoSecretIn(argv: string[]): void {
  for (const secret of [SECRETS.password, SECRETS.token])
    assert.ok(!argv.some((arg) => arg.includes(secret)), `secret in argv: ${argv.join(' ')}`);
}

for (const platform of ['linux', 'win32'] as const) {
  test(`Claude Code proxy (${platform}): right headers, no secret in argv, no space in a --header argument`, () => {
    for (const [auth, expected] of [
      ['password', PASSWORD_HEADERS],
      ['bearer', BEARER_HEADERS],
    ] as const) {
      for (const secrets of ['ref', 'literal'] as const) {
        // With literal values the client's environment holds nothing.
        const { argv, headers } = run(
          entry('claude-code', auth, secrets, platform),
          claudeCodeExpand,
          secrets === 'ref' ? CLIENT_ENV : {},
          true,
        );
        assert.deepEqual(headers, expected, `${auth} ${secrets}`);
        assertNoSecretIn(argv);
        for (let i = 0; i < argv.length; i++)
          if (argv[i] === '--header') assert.ok(!argv[i + 1]!.includes(' '), argv[i + 1]);
      }
    }
  });
}

test('Gemini CLI proxy: right headers from the env block alone, no secret in argv', () => {
  for (const [auth, expected] of [
    ['password', PASSWORD_HEADERS],
    ['bearer', BEARER_HEADERS],
  ] as const) {
    for (const secrets of ['ref', 'literal'] as const) {
      const { argv, headers } = run(
        entry('gemini', auth, secrets),
        geminiExpand,
        secrets === 'ref' ? CLIENT_ENV : {},
        false,
      );
      assert.deepEqual(headers, expected, `${auth} ${secrets}`);
      assertNoSecretIn(argv);
    }
  }
});

test('Codex proxy: forwarded variables only, the token expanded by mcp-remote; on Windows the whole header in SERVICE_AUTH_HEADER', () => {
  const codex = (platform: NodeJS.Platform, clientEnv: Env) => {
    const value = entry('codex', 'bearer', 'ref', platform) as ReturnType<typeof entry> & { env_vars: string[] };
    // Codex never expands ${VAR}; it forwards the variables env_vars names.
    const childEnv = Object.fromEntries(value.env_vars.map((name) => [name, clientEnv[name]]));
    return { argv: value.args, headers: mcpRemoteHeaders(value.args, childEnv) };
  };
  const posix = codex('linux', CLIENT_ENV);
  assert.deepEqual(posix.headers, BEARER_HEADERS);
  assertNoSecretIn(posix.argv);
  const windows = codex('win32', { SERVICE_AUTH_HEADER: `Bearer ${SECRETS.token}` });
  assert.deepEqual(windows.headers, BEARER_HEADERS);
  assert.ok(!windows.argv.some((arg) => arg.includes(' ')), windows.argv.join(' | '));
});
