// The shell formats set the variables svcctl reads (docs/sandbox.md). Those the sandbox has no value for are set
// empty, which svcctl reads as unset, so a value left over from another deployment is never used with this one.
import type { SettingName } from '../core/constants.js';
import { envName, legacyEnvName } from '../config/settings.js';

export const READY_FORMATS = ['json', 'sh', 'fish', 'powershell'] as const;
export type ReadyFormat = (typeof READY_FORMATS)[number];

export const PID_VARIABLE = 'SVCCTL_DEV_PID';

export interface ReadyLine {
  base_url: string;
  mcp_url: string;
  users: ReadonlyArray<{ email: string; password: string }>;
  webhooks: ReadonlyArray<{ name: string; ingest_token: string; hmac_secret: string | null }>;
}

/** '' means unset for svcctl, so its legacy SVC_ name is emptied too. */
export function readyVariables(ready: ReadyLine, pid?: number): Array<[string, string]> {
  const user = ready.users[0];
  const webhook = ready.webhooks[0];
  const settings: Array<[SettingName, string]> = [
    ['BASE_URL', ready.base_url],
    ['MCP_URL', ready.mcp_url],
    ['EMAIL', user?.email ?? ''],
    ['PASSWORD', user?.password ?? ''],
    ['INGEST_TOKEN', webhook?.ingest_token ?? ''],
    ['HMAC_SECRET', webhook?.hmac_secret ?? ''],
    ['ACCESS_TOKEN', ''],
  ];
  const variables = settings.flatMap(
    ([name, value]): Array<[string, string]> =>
      value === ''
        ? [
            [envName(name), ''],
            [legacyEnvName(name), ''],
          ]
        : [[envName(name), value]],
  );
  if (pid !== undefined) variables.push([PID_VARIABLE, String(pid)]);
  return variables;
}

/** POSIX single quotes: nothing inside is special; a quote is closed, escaped and reopened. */
const shQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
/** fish single quotes: only \\ and \' are escapes inside (fish-shell docs, "Quotes"). */
const fishQuote = (value: string): string => `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
/** PowerShell single quotes: verbatim; a quote is written twice (about_Quoting_Rules). */
const powershellQuote = (value: string): string => `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (c) => c + c)}'`;

export function formatReady(ready: ReadyLine, format: ReadyFormat, pid?: number): string {
  if (format === 'json') return `${JSON.stringify(pid === undefined ? ready : { ...ready, pid })}\n`;
  const lines = readyVariables(ready, pid).map(([name, value]) => {
    if (format === 'sh') return `export ${name}=${shQuote(value)}`;
    if (format === 'fish') return `set -gx ${name} ${fishQuote(value)}`;
    return `$env:${name} = ${powershellQuote(value)}`;
  });
  return `${lines.join('\n')}\n`;
}

/**
 * What a person at a terminal sees instead of the JSON line: the export lines to paste into another shell,
 * and what a local-mode entry (the service-mcp-server package from npm, which the sandbox does not serve) reads.
 */
export function terminalGreeting(ready: ReadyLine): string {
  const user = ready.users[0];
  return [
    `Sandbox ready: ${ready.base_url} (MCP: ${ready.mcp_url})${user ? `, user ${user.email}` : ''}.`,
    'Point another shell at it (bash/zsh; `svcctl dev --format fish|powershell` for others):',
    formatReady(ready, 'sh').trimEnd(),
    'Local-mode MCP entries (npx -y service-mcp-server@latest, fetched from npm) read SERVICE_BASE_URL, SERVICE_EMAIL and SERVICE_PASSWORD from the lines above.',
    '',
  ].join('\n');
}
