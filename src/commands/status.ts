// `svcctl status`: reads only, prints no secret; a bad credentials file still exits 7 (architecture.md "status").
import { readSavedToken, savedBaseUrls, type SavedToken } from '../auth/credentials-store.js';
import { SETTING_NAMES } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { baseUrlOrigin, optionalBaseUrl } from '../config/base-url.js';
import { relativeTime } from '../auth/jwt.js';
import { RELOGIN_HINT } from '../auth/token-keychain.js';
import { probeDeployment, PROBE_MS, type Reachability } from '../http/reachable.js';
import { exitWith, ExitCode, type ExitCodeValue, isCliError } from '../core/errors.js';
import { foreign } from '../core/output.js';
import { readSetting } from '../config/settings.js';
import { findServiceEntries, sayOtherDeployments, shownEntry, urlCell, type ListedEntry } from './mcp-list.js';

export interface StatusOptions {
  check?: boolean;
  /** With --check: run a project's entries that svcctl did not write without asking. */
  trustProject?: boolean;
}

interface Status {
  deployment: { name: string | null; base_url: string; source: string; answers: boolean; problem?: string } | null;
  login: {
    email: string | null;
    expires_at: string | null;
    expires_in_words: string | null;
    expired: boolean | null;
    password_in_keychain: boolean;
    token_in_keychain: boolean;
  } | null;
  settings: string[];
  clients: Array<ListedEntry & { check?: { ok: boolean; failed: string[] } }>;
  /** What could not be read; each has the exit code it would have been on its own. */
  problems: Array<{ part: 'login'; message: string; hint?: string; exit_code: number }>;
}

function originOf(ctx: Context, baseUrl: string): { name: string | null; base_url: string; source: string } {
  const { name, base_url, source } = baseUrlOrigin(ctx, baseUrl);
  return { name, base_url, source };
}

/** `answers` is the service's answer: a web server at the address that is not the service does not count. */
function reachOf(reach: Reachability): { answers: boolean; problem?: string } {
  if (!reach.answers) return { answers: false, problem: `${reach.reason} within ${PROBE_MS / 1000}s` };
  return reach.service ? { answers: true } : { answers: false, problem: `${reach.reason}; check the base URL (…/api)` };
}

async function checkEntry(
  ctx: Context,
  entry: ListedEntry,
  trustProject: boolean | undefined,
): Promise<{ ok: boolean; failed: string[] }> {
  const [{ locateEntry, isUnreadable }, { runChecks, unreadableReport }, { trustOptionsFor }] = await Promise.all([
    import('../mcp/doctor/locate-entry.js'),
    import('../mcp/doctor/run-checks.js'),
    import('../mcp/doctor/project-trust.js'),
  ]);
  try {
    const located = await locateEntry(ctx, { client: [entry.client], scope: entry.scope, name: entry.name });
    const report = isUnreadable(located)
      ? unreadableReport(located)
      : await runChecks(ctx, located, 30_000, await trustOptionsFor(ctx, ctx.cwd, trustProject));
    return {
      ok: report.ok,
      failed: report.checks.filter((check) => !check.ok).map((check) => `${check.name}: ${check.detail}`),
    };
  } catch (error) {
    if (!isCliError(error)) throw error;
    return { ok: false, failed: [error.message] };
  }
}

/** Without a deployment the file is still read, so that a problem with it is said here and not first at a login. */
async function readLogin(
  ctx: Context,
  baseUrl: string | undefined,
  problems: Status['problems'],
): Promise<SavedToken | undefined> {
  try {
    if (baseUrl === undefined) await savedBaseUrls(ctx);
    else {
      const saved = await readSavedToken(ctx, baseUrl, { warn: false, keychainGone: 'stale' });
      if (saved?.token_lost !== undefined)
        problems.push({
          part: 'login',
          message: saved.token_lost,
          hint: RELOGIN_HINT,
          exit_code: ExitCode.UnsafeConfig,
        });
      return saved;
    }
  } catch (error) {
    if (!isCliError(error)) throw error;
    problems.push({ part: 'login', message: error.message, hint: error.hint, exit_code: error.exitCode });
  }
  return undefined;
}

export async function runStatus(ctx: Context, options: StatusOptions): Promise<void> {
  const baseUrl = optionalBaseUrl(ctx);
  const problems: Status['problems'] = [];
  const saved = await readLogin(ctx, baseUrl, problems);
  const reach = baseUrl === undefined ? undefined : await probeDeployment(ctx.env, baseUrl);
  const { entries, warnings } = await findServiceEntries(ctx, {});
  const now = ctx.now();
  const expiry = saved?.expires_at ? new Date(saved.expires_at) : undefined;
  const status: Status = {
    deployment: baseUrl === undefined ? null : { ...originOf(ctx, baseUrl), ...reachOf(reach!) },
    login: saved
      ? {
          email: saved.email,
          expires_at: saved.expires_at,
          expires_in_words: expiry ? relativeTime(expiry, now) : null,
          expired: expiry ? expiry.getTime() <= now.getTime() : null,
          password_in_keychain: saved.password_in_keychain === true,
          token_in_keychain: saved.token_in_keychain === true,
        }
      : null,
    settings: SETTING_NAMES.flatMap((name) => readSetting(ctx.env, name)?.source ?? []),
    clients: entries,
    problems,
  };
  if (options.check)
    for (const entry of status.clients) entry.check = await checkEntry(ctx, entry, options.trustProject);
  for (const warning of warnings) ctx.out.warn(warning);
  if (ctx.globals.json) ctx.out.jsonResult({ ...status, clients: status.clients.map(shownEntry) });
  else printStatus(ctx, status);
  const problem = problems[0];
  if (problem) throw exitWith(problem.exit_code as ExitCodeValue);
  if (status.clients.some((entry) => entry.check && !entry.check.ok)) throw exitWith(ExitCode.CheckFailed);
}

function printStatus(ctx: Context, status: Status): void {
  const { deployment, login } = status;
  const line = (label: string, text: string): void => ctx.out.result(`${`${label}:`.padEnd(12)}${text}`);
  line(
    'deployment',
    deployment
      ? `${deployment.name ? `${deployment.name} ` : ''}${deployment.base_url} (from ${deployment.source})`
      : 'none: set SERVICE_BASE_URL, pass --base-url, or svcctl login --save',
  );
  if (deployment)
    line(
      'answers',
      deployment.answers
        ? 'yes'
        : `no: ${deployment.problem ?? 'no answer'}${deployment.name ? ` (svcctl deployment remove ${deployment.name}; svcctl deployment prune forgets every one that does not answer)` : ''}`,
    );
  const loginProblem = status.problems.find((problem) => problem.part === 'login');
  line(
    'login',
    loginProblem
      ? `unknown: ${loginProblem.message}${loginProblem.hint ? ` (${loginProblem.hint})` : ''}`
      : login
        ? `${login.email === null ? 'unknown user' : foreign(login.email)}, ${login.expires_at === null ? 'no expiry known' : `${login.expired ? 'expired' : 'expires'} ${login.expires_in_words} (${login.expires_at})`}${login.token_in_keychain ? '; token in Windows Credential Manager' : ''}${login.password_in_keychain ? '; password in the keychain' : ''}`
        : 'not logged in (svcctl login --save)',
  );
  line('settings', status.settings.length > 0 ? status.settings.join(', ') : 'none set');
  if (status.clients.length === 0)
    return line('clients', 'no MCP client has an entry for the service (svcctl mcp install)');
  line('clients', `${status.clients.length} entr${status.clients.length === 1 ? 'y' : 'ies'}`);
  for (const entry of status.clients) {
    const check = entry.check ? (entry.check.ok ? ' ✓' : ` ✗ ${foreign(entry.check.failed[0] ?? '')}`) : '';
    ctx.out.result(
      `  ${entry.client} (${entry.scope}) '${foreign(entry.name)}' ${entry.mode}${entry.stale ? ' (stale)' : ''} ${foreign(urlCell(entry))}: ${foreign(entry.file)}${check}`,
    );
  }
  sayOtherDeployments(ctx, status.clients);
}
