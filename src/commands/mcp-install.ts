/** `svcctl mcp install`: writes our server entry into each chosen client's config file, changing nothing else in it
 * (see src/formats/). All files are planned first; a file that does not parse, or a differing entry without --force (or
 * a "yes" on a terminal), stops the run before anything is written. */
import type { Context } from '../core/context.js';
import type { AuthDefault } from '../mcp/install/default-auth.js';
import { exitWith, ExitCode, usageError } from '../core/errors.js';
import { applyChanges, diffOf, planAll, showDryRun, type PlannedChange } from '../mcp/install/apply-plans.js';
import { neutralizeControls } from '../core/output.js';
import {
  buildEntryRequest,
  clientEnvOf,
  describeProjectFolder,
  projectFolderOf,
  explicitTargets,
  scopeFor,
  type EntryUrls,
  type McpEntryOptions,
} from '../mcp/install/entry-request.js';
import { fileTargetOf, planInstall } from '../mcp/install/install-plan.js';
import { withEditorHosts } from '../mcp/install/host-targets.js';
import { movedNote, removalsElsewhere } from '../mcp/install/stale-entries.js';
import { chooseAuth, chooseClients, chooseModeAndAuth, mayOffer } from '../mcp/install/interactive-choice.js';
import { resolveLiterals } from '../mcp/install/literal-values.js';
import { refuseBlockedEntries } from '../mcp/install/policy.js';
import { checkLiteralsInRepository } from '../mcp/install/literal-in-repo.js';
import { urlSecrets } from '../config/url-secrets.js';
import { renderEntry, type Target } from '../mcp/clients/render-entry.js';
import type { EntryRequest } from '../mcp/types.js';
import {
  adviseAfterChange,
  labelOf,
  sayAuth,
  sayDeployment,
  warnMissingPackages,
  warnDiscontinued,
  warnUnread,
  type Prepared,
} from './mcp-install-notices.js';

export interface McpInstallOptions extends McpEntryOptions {
  dryRun?: boolean;
  force?: boolean;
  /** false with --no-backup. */
  backup?: boolean;
  /** --detected: every client found on this machine (mcp clients). */
  detected?: boolean;
}

interface Chosen {
  targets: Target[];
  options: McpInstallOptions;
  /** The login method was the default (no --auth, no answer at a terminal): why that one. */
  authDefault?: AuthDefault;
}

async function chooseTargets(ctx: Context, given: McpInstallOptions): Promise<Chosen> {
  const options = given.detected ? await withDetected(ctx, given) : given;
  const targets = explicitTargets(options);
  if (targets.length > 0) {
    // A local entry hands the password to the service's own server on this machine, which needs it.
    const { mode } = options;
    if (mode === undefined || mode === 'local') return { targets, options };
    if (options.auth !== undefined || options.token !== undefined) return { targets, options };
    const { choice, defaulted } = await chooseAuth(ctx, mode, targets, options);
    return { targets, options: { ...options, ...choice }, authDefault: defaulted };
  }
  if (options.config !== undefined)
    throw usageError('--config needs --client <id> or --format mcpServers|servers|toml');
  const clients = await chooseClients(ctx, clientEnvOf(ctx, options), 'install the server');
  const chosen = await chooseModeAndAuth(ctx, options, clients);
  return {
    targets: clients.map((client) => ({ client })),
    options: { ...chosen.options, client: clients },
    authDefault: chosen.defaulted,
  };
}

async function withDetected(ctx: Context, options: McpInstallOptions): Promise<McpInstallOptions> {
  if (options.client !== undefined || options.config !== undefined)
    throw usageError('--detected chooses the clients itself: give it without --client or --config');
  const { detectedClientIds } = await import('../mcp/clients/detection.js');
  const client = detectedClientIds(clientEnvOf(ctx, options));
  if (client.length === 0)
    throw usageError(
      '--detected: no MCP client was found on this machine',
      'pass --client <id> (svcctl mcp clients shows what is looked for)',
    );
  return { ...options, client };
}

/** Builds every request without reading a secret, then reads literal values once for all targets. The URLs are resolved
 * with the first target (after its option checks) and reused, so a warning about them is given once. */
async function prepareAll(ctx: Context, targets: Target[], options: McpInstallOptions): Promise<Prepared[]> {
  const requests: EntryRequest[] = [];
  let urls: EntryUrls | undefined;
  for (const target of targets) {
    const request = await buildEntryRequest(ctx, target, options, { literals: 'placeholders', urls });
    urls ??= { baseUrl: request.baseUrl, mcpUrl: request.mcpUrl };
    requests.push(request);
  }
  // A token-helper entry holds no credential (its helper logs in), as buildEntryRequest decides for one entry.
  const literal = (request: EntryRequest): boolean =>
    request.secrets === 'literal' && request.tokenHelper === undefined;
  const first = requests.find(literal);
  if (first) {
    const literals = await resolveLiterals(ctx, first.mode, first.auth, options);
    for (const request of requests) if (literal(request)) request.literals = literals;
  }
  return requests.map((request) => ({ request, rendered: renderEntry(request) }));
}

function secretValues(request: EntryRequest): string[] {
  return [request.literals.password, request.literals.token, ...urlSecrets(request.mcpUrl)].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}

/** Differing entries: replaced after a "yes" on a terminal (without -q); otherwise exit 7 with the diff. */
async function settleConflicts(ctx: Context, changes: PlannedChange[], options: McpInstallOptions): Promise<void> {
  const conflicts = changes.filter((change) => change.plan.status === 'conflict');
  if (conflicts.length === 0 || options.dryRun) return;
  // Replacing is an offer to change what --force left open: not with -q, which answers as a script would.
  const ask = mayOffer(ctx);
  for (const change of conflicts) {
    ctx.out.warn(
      `${change.plan.target.label}: ${change.plan.target.file} already has a different '${change.name}' entry`,
    );
    ctx.out.rawError(`${neutralizeControls(diffOf(change))}\n`);
    if (ask) {
      const { promptConfirm } = await import('../core/prompts.js');
      if (await promptConfirm(ctx, `Replace the existing '${change.name}' entry (a backup is kept)?`, false)) {
        change.plan.status = 'replaced';
        // The user said yes to this diff: a file that changes before the write is left alone (exit 7), not edited again.
        change.reapply = undefined;
        continue;
      }
      // A "no" is the user's choice, not an error: said plainly, with the same exit code as a refusal.
      ctx.out.info(
        `cancelled: nothing was written (the '${change.name}' entry in ${change.plan.target.file} is kept as it is)`,
      );
      throw exitWith(ExitCode.UnsafeConfig);
    }
    ctx.out.error(
      `the '${change.name}' entry in ${change.plan.target.file} differs from the one svcctl would write; nothing was written`,
      'pass --force to replace it whole (the old file is kept as .bak), or --name <other> to add a second entry',
    );
    throw exitWith(ExitCode.UnsafeConfig);
  }
}

export async function runMcpInstall(ctx: Context, given: McpInstallOptions): Promise<void> {
  const chosen = await chooseTargets(ctx, given);
  const { options, authDefault } = chosen;
  const targets =
    options.config === undefined
      ? await withEditorHosts(ctx, chosen.targets, clientEnvOf(ctx, options), (target) => scopeFor(target, options))
      : chosen.targets;
  const prepared = await prepareAll(ctx, targets, options);
  await sayDeployment(ctx, prepared);
  sayAuth(ctx, prepared, authDefault);
  const clientEnv = clientEnvOf(ctx, options);
  if (options.config === undefined && prepared.some(({ request }) => request.scope !== 'user'))
    ctx.out.info(describeProjectFolder(projectFolderOf(ctx, options)));
  const fileTargets = prepared.map(({ request }) =>
    fileTargetOf(request.target, request.name, request.scope, clientEnv, options.config, ctx),
  );
  await refuseBlockedEntries(
    ctx,
    prepared.map(({ request, rendered }) => ({
      client: 'client' in request.target ? request.target.client : null,
      scope: request.scope,
      name: request.name,
      value: rendered.value,
      label: labelOf(request),
    })),
  );
  const changes = await planAll(
    ctx,
    prepared.map((item, index) => ({ ...item, fileTarget: fileTargets[index]! })),
    async (item) => ({
      plan: await planInstall(item.fileTarget, item.rendered, { force: options.force === true }),
      name: item.request.name,
      mode: item.request.mode,
      secrets: secretValues(item.request),
      fileMode: item.rendered.literalSecrets ? 0o600 : undefined,
      reapply: (snapshot) => planInstall(item.fileTarget, item.rendered, { force: options.force === true }, snapshot),
      confirm: true,
    }),
  );
  const files = new Set(changes.map((change) => change.plan.target.file));
  if (files.size < changes.length) throw usageError('two targets name the same file: install them one at a time');
  await checkLiteralsInRepository(
    ctx,
    changes.map((change, index) => ({
      plan: change.plan,
      literal: prepared[index]!.rendered.literalSecrets,
      inUrl: urlSecrets(prepared[index]!.request.mcpUrl).length > 0,
    })),
    options.force === true,
  );
  await settleConflicts(ctx, changes, options);
  warnDiscontinued(ctx, prepared);
  warnUnread(ctx, prepared, clientEnv, options.config);
  await warnMissingPackages(ctx, prepared);
  const moves = await removalsElsewhere(
    ctx,
    prepared.map(({ request }) => ({ target: request.target, name: request.name, scope: request.scope })),
    clientEnv,
    options.config,
    'movable',
  );
  for (const move of moves) ctx.out.info(`${move.plan.target.label}: ${movedNote(move.stale, move.name)}`);
  if (options.dryRun) {
    showDryRun(ctx, [...changes, ...moves]);
    return;
  }
  const reports = await applyChanges(ctx, [...changes, ...moves], { backup: options.backup !== false });
  const changed = new Set(reports.flatMap((report, index) => (report.status === 'unchanged' ? [] : [index])));
  adviseAfterChange(ctx, prepared, changed);
}
