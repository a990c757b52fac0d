/**
 * The table of redaction-sources.test.ts (every source of a secret × every output) that it shares with
 * terminals-and-keychains.e2e.test.ts, which holds the cells only a process reaches (a terminal, an OS keychain):
 * the sources, the outputs, the cells no command reaches and why, and the checks both files make.
 */
import assert from 'node:assert/strict';
import { placeFile } from './cli.js';
import { EVERY_ENCODING_HIDDEN, revealed } from './secret-encodings.js';

export const PASSWORD = 'pwSEKRET/5+5 =q';
export const SAVED = 'savedTOK/3+3 =zz';
export const EMAIL = 'ops@example.com';

export const SOURCES = [
  'variable',
  'file',
  'stdin',
  'keychain',
  'saved token',
  'login token',
  'password prompt',
] as const;
export const OUTPUTS = ['stdout', 'stderr', '--json', 'event sent', 'spool file', 'mcp proxy log'] as const;
export type Source = (typeof SOURCES)[number];
export type OutputName = (typeof OUTPUTS)[number];

export interface CellName {
  source: Source;
  outputs: OutputName[];
}

/** The cells terminals-and-keychains.e2e.test.ts checks (each test there is named by its entry). */
export const PROCESS_CELLS = {
  prompt: { source: 'password prompt', outputs: ['stderr'] },
  keychain: { source: 'keychain', outputs: ['stderr', 'stdout', 'mcp proxy log'] },
} as const satisfies Record<string, CellName>;

/** Cells that no command reaches, and why. */
export const NOT_REACHED: Partial<Record<`${Source} × ${OutputName}`, string>> = {
  'stdin × stdout':
    'a password from stdin serves login and token --refresh, whose stdout is the token, printed on purpose',
  'password prompt × stdout': 'a prompted password serves login, whose stdout is the token, printed on purpose',
  'stdin × --json':
    "the --json document of login and token holds the token, its email and expiry, never a service's words (those go to stderr)",
  'password prompt × --json':
    "the --json document of login holds the token, its email and expiry, never a service's words (those go to stderr)",
  'keychain × --json':
    "the --json document of token --refresh holds the token, never a service's words (those go to stderr)",
  'saved token × --json':
    'the saved token is printed on purpose by `token` (also with --json); the proxy that sends it has no --json',
  'login token × --json':
    'a new token is printed on purpose by login and token --refresh (also with --json); the proxy has no --json',
  'stdin × event sent': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'stdin × spool file': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'keychain × event sent': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'keychain × spool file': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'saved token × event sent':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'saved token × spool file':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'login token × event sent':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'login token × spool file':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'password prompt × event sent': 'event commands never prompt',
  'password prompt × spool file': 'event commands never prompt',
  'stdin × mcp proxy log': 'the proxy reads no password from stdin: stdin carries the MCP protocol',
  'password prompt × mcp proxy log': 'the proxy never prompts (stdin carries the MCP protocol)',
};

export function assertHidden(text: string, secrets: string[], where: string): void {
  assert.deepEqual(revealed(text, secrets), [], `${where} reveals a secret:\n${text}`);
}

/** The proxy's answer to initialize is an error whose message, like the log, shows the echo hidden. */
export function assertProxyHidden(result: { stdout: string; stderr: string }, secrets: string[]): void {
  assertHidden(result.stdout, secrets, 'the proxy stdout');
  assertHidden(result.stderr, secrets, 'the proxy log');
  assert.ok(result.stderr.includes(EVERY_ENCODING_HIDDEN), `the log shows the echo hidden:\n${result.stderr}`);
  const answer = JSON.parse(result.stdout.split('\n')[0]!) as { error?: { message: string } };
  assert.ok(
    answer.error?.message.includes(EVERY_ENCODING_HIDDEN),
    `the error answer shows the echo hidden: ${result.stdout}`,
  );
}

/** A saved login for `baseUrl` in credentials.json. */
export async function saveEntry(home: string, baseUrl: string, entry: Record<string, unknown>): Promise<void> {
  await placeFile(
    home,
    '.config/svcctl/credentials.json',
    JSON.stringify({
      version: 1,
      tokens: { [baseUrl]: { email: EMAIL, saved_at: '2026-01-01T00:00:00.000Z', ...entry } },
    }),
  );
}
