/** What `svcctl mcp install` tells the user around the write: where the entries point and with which login method
 * (before), clients that cannot use them (before), and what the user must still do (after). */
import type { Context } from '../core/context.js';
import type { AuthDefault } from '../mcp/install/default-auth.js';
import { CLIENTS } from '../mcp/clients/table.js';
import { unreadBy } from '../mcp/clients/versions.js';
import { hostLabel } from '../mcp/clients/extension-hosts.js';
import type { ClientEnv, EntryRequest, RenderedEntry } from '../mcp/types.js';
import { baseUrlOrigin, optionalBaseUrl } from '../config/base-url.js';
import { readSetting } from '../config/settings.js';
import { exportWord, pasteShellOf } from '../mcp/render/shell-quote.js';

export interface Prepared {
  request: EntryRequest;
  rendered: RenderedEntry;
}

export function labelOf(request: EntryRequest): string {
  const { target } = request;
  if (!('client' in target)) return `${target.format} file`;
  const label = CLIENTS[target.client].label;
  return target.host === undefined ? label : `${label} in ${hostLabel(target.host)}`;
}

/** Which deployment the entries point at and why: a saved default can be a sandbox long stopped, so a deployment that
 * came from config.toml (not a flag or variable of this run) is also probed. */
export async function sayDeployment(ctx: Context, prepared: Prepared[]): Promise<void> {
  const first = prepared[0]?.request;
  if (!first) return;
  // A proxy entry names the MCP URL too (mcp-remote's argument): only a local entry holds the base URL.
  const target = first.mode === 'local' ? first.baseUrl : first.mcpUrl;
  const givenMcpUrl =
    first.mode !== 'local'
      ? readSetting(ctx.env, 'MCP_URL', { value: ctx.globals.mcpUrl, name: '--mcp-url' })
      : undefined;
  const baseUrl = first.baseUrl || optionalBaseUrl(ctx);
  if (givenMcpUrl || baseUrl === undefined)
    return ctx.out.info(`The entry points at ${target}${givenMcpUrl ? ` (from ${givenMcpUrl.source})` : ''}.`);
  const origin = baseUrlOrigin(ctx, baseUrl);
  ctx.out.info(
    `The entry points at ${origin.name ? `deployment '${origin.name}' ` : ''}${target} (from ${origin.source}).`,
  );
  if (!origin.saved) return;
  const { probeDeployment } = await import('../http/reachable.js');
  const reach = await probeDeployment(ctx.env, baseUrl);
  if (reach.answers && !reach.service) ctx.out.warn(`${baseUrl}: ${reach.reason}`);
  else if (!reach.answers) {
    const forget =
      ctx.deployment?.kind === 'picked' && ctx.deployment.source !== 'the only saved login'
        ? `svcctl deployment remove ${origin.name}`
        : 'svcctl logout';
    ctx.out.warn(
      `${baseUrl} does not answer (${reach.reason}): is it a sandbox that was stopped? Pass --base-url, or forget it: ${forget}`,
    );
  }
}

/** Which login method a default gave, and why: the same words on a terminal (with -q, say) and off one. */
export function sayAuth(ctx: Context, prepared: Prepared[], authDefault: AuthDefault | undefined): void {
  const first = prepared[0]?.request;
  if (!first || first.mode === 'local' || authDefault === undefined) return;
  if (first.tokenHelper !== undefined) {
    ctx.out.info(
      `Auth: the svcctl token helper (no --auth given, and ${authDefault.why}): the entry holds no secret; --auth password writes the email and password headers instead.`,
    );
  } else {
    // A warning, so that -q shows it too: the entry sends the account password, a choice nobody made. The way out it
    // names is one this target takes: a --format file refuses the token helper.
    const instead = prepared.every(({ request }) => 'client' in request.target)
      ? 'after `svcctl login --save`, --auth bearer --token helper sends a short-lived token instead'
      : '--auth bearer sends the access token from SERVICE_ACCESS_TOKEN instead';
    ctx.out.warn(
      `Auth: password headers (no --auth given, and ${authDefault.why}): the client sends the email and password with every request; ${instead}.`,
    );
  }
}

/** A client that was shut down: its entry still works while the user's copy runs; say where its users went. */
export function warnDiscontinued(ctx: Context, prepared: Prepared[]): void {
  for (const { request } of prepared) {
    const notice = 'client' in request.target ? CLIENTS[request.target.client].discontinued : undefined;
    if (notice !== undefined) ctx.out.warn(notice);
  }
}

/** Versions of a client installed side by side that cannot all read one place (opencode 2 beside an old opencode 1). */
export function warnUnread(ctx: Context, prepared: Prepared[], clientEnv: ClientEnv, config: string | undefined): void {
  if (config !== undefined) return;
  for (const { request } of prepared) {
    if (!('client' in request.target)) continue;
    const client = CLIENTS[request.target.client];
    for (const reason of unreadBy(client, clientEnv, request.scope))
      ctx.out.warn(`${client.label}: ${reason}: that version will not load '${request.name}'`);
  }
}

/** After the write, for the entries that changed: what the user still has to know or do. */
export function adviseAfterChange(ctx: Context, prepared: Prepared[], changed: Set<number>): void {
  const exports = new Set<string>();
  prepared.forEach(({ request, rendered }, index) => {
    if (!changed.has(index)) return;
    if (rendered.literalSecrets)
      ctx.out.info(
        `${labelOf(request)}: the file holds your credentials as literal values; it is readable only by you (mode 0600)`,
      );
    for (const name of rendered.variablesToExport) exports.add(name);
    for (const note of rendered.notes) ctx.out.info(`${labelOf(request)}: ${note}`);
  });
  if (exports.size > 0) {
    ctx.out.info(
      `The entry reads ${[...exports].join(', ')} from the environment: ${exportWord(pasteShellOf(prepared[0]!.request))} ${exports.size > 1 ? 'them' : 'it'} in the environment the client starts from.`,
    );
  }
}

/** A local entry runs its package from the npm registry: one that is not there cannot start, so say it now rather than
 * at the client's first start (a warning: the entry is written all the same). */
export async function warnMissingPackages(ctx: Context, prepared: Prepared[]): Promise<void> {
  const specs = new Set(prepared.flatMap(({ request }) => (request.mode === 'local' ? [request.package] : [])));
  if (specs.size === 0) return;
  const { checkPackage, missingPackageFix } = await import('../mcp/install/package-check.js');
  for (const spec of specs) {
    const found = await checkPackage(ctx, spec);
    if (found.kind === 'missing') ctx.out.warn(`${found.what}: the entry cannot start. ${missingPackageFix(spec)}`);
    else if (found.kind === 'unknown')
      ctx.out.warn(
        `cannot tell whether the npm registry has ${spec} (${found.why}); svcctl mcp doctor starts the entry and says`,
      );
  }
}
