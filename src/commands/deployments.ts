/** `svcctl deployment list | use | add | remove`: the deployments saved in config.toml
 * (src/config/deployments-file.ts), the way `gh auth switch` and `kubectl config use-context` name theirs. `list` marks
 * the default and says which have a saved login. */
import { savedBaseUrls } from '../auth/credentials-store.js';
import { forgetLogin } from '../auth/forget-login.js';
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { changeDeployments, deploymentsPath, readDeployments, someNames } from '../config/deployments-file.js';
import { parseBaseUrl } from '../config/settings.js';
import { maskUrl } from '../redaction/mask-entry.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

export async function runDeploymentList(ctx: Context): Promise<void> {
  const file = await readDeployments(ctx);
  const logins = new Set(await savedBaseUrls(ctx).catch(() => [] as string[]));
  // The file is the user's to edit: a password or a token pasted into a URL there is not shown.
  const rows = file.deployments.map((d) => ({
    name: d.name,
    base_url: maskUrl(d.baseUrl),
    default: d.name === file.default,
    logged_in: logins.has(d.baseUrl),
  }));
  if (ctx.globals.json) return ctx.out.jsonResult(rows);
  if (rows.length === 0) {
    ctx.out.info(
      `no deployment is saved in ${deploymentsPath(ctx)}: svcctl login --save (with --base-url or SERVICE_BASE_URL) remembers one`,
    );
    return;
  }
  const width = rows.reduce((widest, row) => Math.max(widest, row.name.length), 0);
  for (const row of rows)
    ctx.out.result(
      `${row.default ? '*' : ' '} ${row.name.padEnd(width)}  ${row.base_url}${row.logged_in ? '  (logged in)' : ''}`,
    );
}

export async function runDeploymentUse(ctx: Context, name: string): Promise<void> {
  await changeDeployments(ctx, (file) => {
    if (!file.deployments.some((d) => d.name === name))
      throw unknown(
        name,
        file.deployments.map((d) => d.name),
      );
    if (file.default === name) return false;
    file.default = name;
    return true;
  });
  ctx.out.success(`'${name}' is the default deployment`);
}

export async function runDeploymentAdd(ctx: Context, name: string, url: string): Promise<void> {
  if (!NAME.test(name))
    throw usageError(
      `'${name}' is not a deployment name`,
      "letters, digits, '.', '_', ':' and '-', first a letter or digit",
    );
  const baseUrl = parseBaseUrl(url, 'the URL').url;
  await changeDeployments(ctx, (file) => {
    const same = file.deployments.find((d) => d.name === name);
    if (same && same.baseUrl !== baseUrl)
      throw usageError(
        `a deployment named '${name}' is saved with another URL (${maskUrl(same.baseUrl)})`,
        `remove it first: svcctl deployment remove ${name}`,
      );
    if (same) return false;
    file.deployments.push({ name, baseUrl });
    file.default ??= name;
    return true;
  });
  ctx.out.success(`deployment '${name}' saved: ${baseUrl}`);
}

export interface RemoveOptions {
  /** --keep-login: leave the token saved for it (and a password in the keychain). */
  keepLogin?: boolean;
}

export async function runDeploymentRemove(ctx: Context, name: string, options: RemoveOptions = {}): Promise<void> {
  let baseUrl = '';
  await changeDeployments(ctx, (file) => {
    const index = file.deployments.findIndex((d) => d.name === name);
    if (index === -1)
      throw unknown(
        name,
        file.deployments.map((d) => d.name),
      );
    baseUrl = file.deployments[index]!.baseUrl;
    file.deployments.splice(index, 1);
    if (file.default === name) delete file.default;
    return true;
  });
  const loginGone = options.keepLogin ? false : (await forgetLogin(ctx, baseUrl)) !== undefined;
  ctx.out.success(
    `deployment '${name}' removed${loginGone ? ', with the token saved for it' : options.keepLogin ? ' (the token saved for it stays: svcctl --base-url URL logout forgets it)' : ''}`,
  );
}

/** Removes every saved deployment that does not answer (and the logins saved for them); --dry-run only lists them. */
export async function runDeploymentPrune(ctx: Context, options: { dryRun?: boolean }): Promise<void> {
  const file = await readDeployments(ctx);
  const { probeDeployment } = await import('../http/reachable.js');
  const probes = await Promise.all(
    file.deployments.map(async (d) => ({ deployment: d, reach: await probeDeployment(ctx.env, d.baseUrl) })),
  );
  const dead = probes.flatMap(({ deployment, reach }) =>
    reach.answers ? [] : [{ ...deployment, reason: reach.reason }],
  );
  if (!options.dryRun && dead.length > 0) {
    const names = new Set(dead.map((d) => d.name));
    await changeDeployments(ctx, (current) => {
      current.deployments = current.deployments.filter((d) => !names.has(d.name));
      if (current.default !== undefined && names.has(current.default)) delete current.default;
      return true;
    });
    for (const d of dead) await forgetLogin(ctx, d.baseUrl);
  }
  if (ctx.globals.json)
    return ctx.out.jsonResult({
      removed: options.dryRun ? [] : dead.map((d) => d.name),
      not_answering: dead.map((d) => ({ name: d.name, base_url: maskUrl(d.baseUrl), reason: d.reason })),
    });
  for (const d of dead)
    ctx.out.result(`${options.dryRun ? 'would remove' : 'removed'} ${d.name}  ${maskUrl(d.baseUrl)}: ${d.reason}`);
  const kept = file.deployments.length - dead.length;
  ctx.out.info(
    `${dead.length === 0 ? 'every saved deployment answers' : `${dead.length} ${plural(dead.length, 'deployment')} ${options.dryRun ? 'do not answer' : 'removed, with their saved tokens'}`}; ${kept} ${plural(kept, 'deployment')} kept`,
  );
}

const plural = (count: number, word: string): string => (count === 1 ? word : `${word}s`);

function unknown(name: string, names: string[]) {
  return usageError(
    `no deployment named '${name}'`,
    names.length > 0 ? `saved deployments: ${someNames(names)}` : 'none is saved: svcctl login --save remembers one',
  );
}
