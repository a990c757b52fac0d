/**
 * An extension client (Cline, Roo, Zoo) runs in any app of the VS Code family, each with its own storage: its entry
 * goes to each app that has the extension, or to those the user picks at a terminal (`mcp install`, and `mcp sync`
 * unless --check, --dry-run or --yes says it is not there to be asked).
 */
import { canPrompt, type Context } from '../../core/context.js';
import { CLIENTS } from '../clients/table.js';
import type { Target } from '../clients/render-entry.js';
import type { ClientEnv, Scope } from '../types.js';

export async function withEditorHosts(
  ctx: Context,
  targets: Target[],
  clientEnv: ClientEnv,
  scope: (target: Target) => Scope,
  ask = canPrompt(ctx),
): Promise<Target[]> {
  const expanded: Target[] = [];
  for (const target of targets) {
    const client = 'client' in target ? CLIENTS[target.client] : undefined;
    const hosts = client?.hostsWithExtension?.(clientEnv) ?? [];
    if (client === undefined || !('client' in target) || hosts.length < 2 || scope(target) !== 'user') {
      expanded.push(target);
      continue;
    }
    const names = hosts.map((host) => host.label).join(', ');
    let folders = hosts.map((host) => host.folder);
    if (ask) {
      const { promptChecklist } = await import('../../core/prompts.js');
      folders = await promptChecklist(
        ctx,
        `${client.label} is in ${names}: which should get the server?`,
        hosts.map((host) => ({ value: host.folder, name: host.label, checked: true })),
        '--client',
      );
    } else {
      ctx.out.info(`${client.label} is in ${names}: the server goes to each (at a terminal svcctl asks which)`);
    }
    for (const host of folders) expanded.push({ client: target.client, host });
  }
  return expanded;
}
