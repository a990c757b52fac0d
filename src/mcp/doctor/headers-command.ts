// Run as the client runs it: through a shell, with its time limit and the variables it adds (docs/mcp.md).
import { shorten } from '../../http/redact.js';
import type { HttpPlan } from './entry-plan.js';
import { fail, pass, type CheckResult } from './types.js';

export interface HeadersRun {
  check: CheckResult;
  headers?: Record<string, string>;
}

function parseHeaders(stdout: string): Record<string, string> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim());
  } catch {
    return 'did not print JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'did not print a JSON object';
  const bad = Object.entries(parsed).find(([, value]) => typeof value !== 'string');
  if (bad) return `printed a non-string value for ${bad[0]}`;
  return parsed as Record<string, string>;
}

export async function runHeadersCommand(
  http: HttpPlan,
  name: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  platform: NodeJS.Platform,
): Promise<HeadersRun | undefined> {
  const command = http.headersCommand;
  if (command === undefined) return undefined;
  const fix = async (): Promise<string> =>
    `run the command in a terminal to see why; ${await (await import('../../auth/keychain.js')).reloginAdvice(platform)}`;
  const { exec } = await import('node:child_process');
  const added: Record<string, string> = {};
  for (const [variable, what] of Object.entries(command.spec.env))
    added[variable] = what === 'server-name' ? name : http.url;
  const field = command.spec.field;
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }>(
    (resolve) => {
      exec(
        command.line,
        { cwd, env: { ...env, ...added }, timeout: command.spec.timeoutMs, windowsHide: true },
        (error, stdout, stderr) => {
          const timedOut = error !== null && (error as { killed?: boolean }).killed === true;
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, timedOut });
        },
      );
    },
  );
  const shown = `\`${shorten(command.line, 160)}\``;
  if (result.timedOut)
    return {
      check: fail('headers', `${field} ${shown} did not finish within ${command.spec.timeoutMs / 1000} s`, await fix()),
    };
  if (result.code !== 0) {
    const last =
      result.stderr
        .trim()
        .split('\n')
        .filter((line) => /error/i.test(line))
        .slice(-1)[0] ??
      result.stderr.trim().split('\n').slice(-1)[0] ??
      '';
    return {
      check: fail(
        'headers',
        `${field} ${shown} exited with ${result.code}${last ? `: ${shorten(last, 200)}` : ''}`,
        await fix(),
      ),
    };
  }
  const headers = parseHeaders(result.stdout);
  if (typeof headers === 'string')
    return {
      check: fail(
        'headers',
        `${field} ${shown} ${headers} (the client needs a JSON object of header names to strings)`,
        await fix(),
      ),
    };
  return {
    check: pass('headers', `${field} ${shown} printed ${Object.keys(headers).join(', ') || 'no headers'}`),
    headers,
  };
}
