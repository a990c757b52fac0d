// The webhooks' ingest tokens (and the demo webhook's HMAC secret) that `svcctl dev` made up, kept in svcctl's state
// folder beside the port, so a restart keeps what the cron and systemd recipes saved in their secret files. A secret
// given with --webhook name:secret is the user's, never kept here; --fresh makes new ones.
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../core/context.js';
import { fileTrustProblem } from '../fs/owner-mode.js';
import { replaceFile } from '../fs/no-follow.js';
import { DEMO_WEBHOOK_NAME, randomSecret, type SandboxWebhook } from './sandbox-options.js';
import { ensureSandboxStateDir, sandboxStateDir } from './sandbox-state.js';

type StateContext = Pick<Context, 'env' | 'homeDir' | 'uid'>;

interface KeptWebhook {
  ingest_token: string;
  /** Only a secret svcctl made up (the demo webhook's). */
  hmac_secret?: string;
}

export const keptSecretsFile = (ctx: StateContext): string => join(sandboxStateDir(ctx), 'webhook-secrets.json');

/** What the last run kept; nothing when the file is missing, not the user's own regular file, or not svcctl's JSON. */
async function readKept(ctx: StateContext): Promise<Record<string, KeptWebhook>> {
  const file = keptSecretsFile(ctx);
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || fileTrustProblem(info, ctx.uid) !== undefined) return {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, KeptWebhook>)
      : {};
  } catch {
    return {};
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The webhooks to serve (the demo webhook when none is given), with the secrets of the last run where svcctl made them
 * up, and those secrets written back (0600). `fresh`: new secrets, which replace the kept ones. */
export async function withKeptSecrets(
  ctx: StateContext,
  given: SandboxWebhook[],
  fresh: boolean,
): Promise<{ webhooks: SandboxWebhook[]; reused: boolean }> {
  const kept = fresh ? {} : await readKept(ctx);
  const demo = given.length === 0;
  const webhooks = (demo ? [{ name: DEMO_WEBHOOK_NAME, ingestToken: '' }] : given).map((webhook) => {
    const last = kept[webhook.name];
    const ingestToken = text(last?.ingest_token) ?? randomSecret('ing_');
    if (!demo) return { ...webhook, ingestToken };
    return { ...webhook, ingestToken, hmacSecret: text(last?.hmac_secret) ?? randomSecret('whsec_') };
  });
  const reused = webhooks.some((webhook) => text(kept[webhook.name]?.ingest_token) !== undefined);
  const record: Record<string, KeptWebhook> = { ...kept };
  for (const webhook of webhooks)
    record[webhook.name] = demo
      ? { ingest_token: webhook.ingestToken, hmac_secret: webhook.hmacSecret as string }
      : { ...kept[webhook.name], ingest_token: webhook.ingestToken };
  await ensureSandboxStateDir(ctx);
  await replaceFile(keptSecretsFile(ctx), `${JSON.stringify(record, null, 2)}\n`, 0o600);
  return { webhooks, reused };
}
