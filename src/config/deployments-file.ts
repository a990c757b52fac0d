/**
 * Named deployments, remembered in $XDG_CONFIG_HOME/svcctl/config.toml so that
 * a command needs no SERVICE_BASE_URL once a login was saved:
 *
 *   default = "acme.example.com"
 *   [deployments."acme.example.com"]
 *   base_url = "https://acme.example.com/api"
 *
 * Nothing secret is in it (tokens stay in credentials.json, passwords in the
 * keychain). Which deployment a command uses, first match wins: --base-url,
 * --deployment NAME, SERVICE_BASE_URL, SVCCTL_DEPLOYMENT, the default of this
 * file, the only deployment of this file, the only base URL with a saved login.
 * This module (and smol-toml) is loaded only when no flag or variable names a
 * base URL.
 */
import { join } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { configDir, savedBaseUrls } from '../auth/credentials-store.js';
import type { Context, Deployment, Picked } from '../core/context.js';

export type { Deployment, Picked } from '../core/context.js';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { readSnapshot, updateSafely } from '../fs/safe-write.js';
import { parseBaseUrl } from './settings.js';


export interface DeploymentsFile {
  default?: string;
  deployments: Deployment[];
}


type PathContext = Pick<Context, 'env' | 'homeDir'>;

export const deploymentsPath = (ctx: PathContext): string => join(configDir(ctx), 'config.toml');

/** The name a deployment gets by default: its host (and port). */
export const nameFor = (baseUrl: string): string => new URL(baseUrl).host;

export async function readDeployments(ctx: PathContext): Promise<DeploymentsFile> {
  const path = deploymentsPath(ctx);
  const snapshot = await readSnapshot(path);
  return snapshot.exists ? parseDeployments(snapshot.text, path) : { deployments: [] };
}

function parseDeployments(text: string, path: string): DeploymentsFile {
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(ExitCode.UnsafeConfig, `${path} is not valid TOML (${(error as Error).message.split('\n')[0]})`, { hint: 'fix it, or delete it and log in again with --save' });
  }
  const table = (data.deployments ?? {}) as Record<string, { base_url?: unknown }>;
  const deployments = Object.entries(table)
    .filter(([, value]) => typeof value?.base_url === 'string')
    .map(([name, value]) => ({ name, baseUrl: value.base_url as string }));
  return { ...(typeof data.default === 'string' ? { default: data.default } : {}), deployments };
}

function render(file: DeploymentsFile): string {
  const deployments = Object.fromEntries(file.deployments.map((d) => [d.name, { base_url: d.baseUrl }]));
  const header = '# svcctl\'s deployments (svcctl deployment list | use | add | remove). No secret is kept here.\n';
  return `${header}${stringify({ ...(file.default !== undefined ? { default: file.default } : {}), deployments })}\n`;
}

/** Changes the file under its lock (0600, written like every svcctl file: temp file, rename, never through a link). */
export async function changeDeployments(ctx: PathContext, change: (file: DeploymentsFile) => boolean): Promise<void> {
  const path = deploymentsPath(ctx);
  await updateSafely(
    path,
    (snapshot) => {
      const file = snapshot.exists ? parseDeployments(snapshot.text, path) : { deployments: [] };
      return change(file) ? render(file) : undefined;
    },
    { mode: 0o600, privateFolder: true, backup: false },
  );
}

/** Remembers a deployment (login --save): added under its host's name unless its base URL is known; the first one is the default. */
export async function rememberDeployment(ctx: PathContext, baseUrl: string): Promise<string> {
  let name = nameFor(baseUrl);
  await changeDeployments(ctx, (file) => {
    const known = file.deployments.find((d) => d.baseUrl === baseUrl);
    if (known) {
      name = known.name;
      return false;
    }
    while (file.deployments.some((d) => d.name === name)) name = `${name}-2`;
    file.deployments.push({ name, baseUrl });
    file.default ??= name;
    return true;
  });
  return name;
}

/** The deployment to use when no flag or variable names a base URL. */
export async function pickDeployment(ctx: PathContext, wanted: { name: string; source: string } | undefined): Promise<Picked> {
  const file = await readDeployments(ctx);
  const byName = (name: string): Deployment | undefined => file.deployments.find((d) => d.name === name);
  if (wanted) {
    const found = byName(wanted.name);
    if (!found) {
      throw usageError(
        `${wanted.source}: no deployment named '${wanted.name}'`,
        file.deployments.length > 0 ? `saved deployments: ${file.deployments.map((d) => d.name).join(', ')} (svcctl deployment list)` : 'save one with svcctl login --save (with --base-url), or svcctl deployment add NAME URL',
      );
    }
    return { kind: 'picked', deployment: found, source: wanted.source };
  }
  if (file.default !== undefined && byName(file.default)) return { kind: 'picked', deployment: byName(file.default)!, source: `the default deployment of ${deploymentsPath(ctx)}` };
  if (file.deployments.length === 1) return { kind: 'picked', deployment: file.deployments[0]!, source: `the only deployment of ${deploymentsPath(ctx)}` };
  if (file.deployments.length > 1) return { kind: 'ambiguous', names: file.deployments.map((d) => d.name) };
  const logins = await savedBaseUrls(ctx as Context).catch(() => []);
  if (logins.length === 1) {
    const baseUrl = parseBaseUrl(logins[0]!, 'the saved login').url;
    return { kind: 'picked', deployment: { name: nameFor(baseUrl), baseUrl }, source: 'the only saved login' };
  }
  return logins.length > 1 ? { kind: 'ambiguous', names: logins } : { kind: 'none' };
}
