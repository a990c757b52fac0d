// The shell formats set the variables svcctl reads (docs/sandbox.md). Those the sandbox has no value for are set
// empty, which svcctl reads as unset, so a value left over from another deployment is never used with this one.
import type { SettingName } from '../core/constants.js';
import { envName, legacyEnvName } from '../config/settings.js';
import { powerShellString, quote } from '../mcp/render/shell-quote.js';

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

export const STOP_FUNCTION = 'svcctl_dev_stop';
/** Tenths of a second the stop waits for the sandbox to close, so the next `svcctl dev` finds its port free. */
const STOP_WAIT_TENTHS = 50;

/** Stops the sandbox, unsets the variables, waits for the port (architecture.md "Sandbox stop"). */
function stopFunction(format: Exclude<ReadyFormat, 'json'>, names: string[], pid?: number): string {
  if (format === 'sh') {
    const kill =
      pid === undefined
        ? ''
        : `  kill ${pid} && (n=0; while [ "$n" -lt ${STOP_WAIT_TENTHS} ] && kill -0 ${pid} 2>/dev/null; do case "$(ps -o stat= -p ${pid} 2>/dev/null)" in *Z*) break ;; esac; sleep 0.1; n=$((n + 1)); done)\n`;
    return `${STOP_FUNCTION}() {\n${kill}  unset ${names.join(' ')}\n  unset -f ${STOP_FUNCTION}\n}`;
  }
  if (format === 'fish') {
    const kill =
      pid === undefined
        ? ''
        : `    if kill ${pid}\n        set -l n 0\n        while test $n -lt ${STOP_WAIT_TENTHS}; and kill -0 ${pid} 2>/dev/null; and not string match -q '*Z*' -- (ps -o stat= -p ${pid} 2>/dev/null)\n            sleep 0.1\n            set n (math $n + 1)\n        end\n    end\n`;
    // One name per `set -e`: fish 3.1's takes one.
    return `function ${STOP_FUNCTION}\n${kill}    for name in ${names.join(' ')}\n        set -e -g $name\n    end\n    functions -e ${STOP_FUNCTION}\nend`;
  }
  // Wait-Process is Windows-only; .NET's Process.WaitForExit(ms) works on every platform PowerShell runs on.
  const kill =
    pid === undefined
      ? ''
      : `  $sandbox = Get-Process -Id ${pid} -ErrorAction SilentlyContinue\n  if ($sandbox) { Stop-Process -InputObject $sandbox; [void]$sandbox.WaitForExit(${STOP_WAIT_TENTHS * 100}) }\n`;
  const paths = names.map((name) => `Env:${name}`).join(', ');
  return `function global:${STOP_FUNCTION} {\n${kill}  Remove-Item -Path ${paths} -ErrorAction SilentlyContinue\n  Remove-Item -Path Function:${STOP_FUNCTION}\n}`;
}

export function formatReady(ready: ReadyLine, format: ReadyFormat, pid?: number): string {
  if (format === 'json') return `${JSON.stringify(pid === undefined ? ready : { ...ready, pid })}\n`;
  const variables = readyVariables(ready, pid);
  const lines = variables.map(([name, value]) => {
    if (format === 'sh') return `export ${name}=${quote(value, 'posix')}`;
    if (format === 'fish') return `set -gx ${name} ${quote(value, 'posix-or-fish')}`;
    return `$env:${name} = ${powerShellString(value)}`;
  });
  lines.push(
    stopFunction(
      format,
      variables.map(([name]) => name),
      pid,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** What a person at a terminal sees instead of the JSON line: the export lines to paste into another shell, and what a
 * local-mode entry (the service-mcp-server package from npm, which the sandbox does not serve) reads. */
export function terminalGreeting(ready: ReadyLine): string {
  const user = ready.users[0];
  return [
    `Sandbox ready: ${ready.base_url} (MCP: ${ready.mcp_url})${user ? `, user ${user.email}` : ''}.`,
    'Point another shell at it (bash/zsh; `svcctl dev --format fish|powershell` for others; `svcctl_dev_stop` unsets them again):',
    formatReady(ready, 'sh').trimEnd(),
    'Local-mode MCP entries (npx -y service-mcp-server@latest, fetched from npm) read SERVICE_BASE_URL, SERVICE_EMAIL and SERVICE_PASSWORD from the lines above.',
    '',
  ].join('\n');
}
