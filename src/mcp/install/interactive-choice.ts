// Without a terminal a missing choice is a usage error naming --client, so a script never waits for an answer.
import { canPrompt, type Context } from '../../core/context.js';
import { usageError } from '../../core/errors.js';
import { CLIENTS, detectInstalledClients } from '../clients/table.js';
import type { McpEntryOptions } from './entry-request.js';
import { AUTH_OF, type AuthChoice, type AuthDefault, defaultAuth } from './default-auth.js';
import type { Target } from '../clients/render-entry.js';
import { CLIENT_IDS, type ClientEnv, type ClientId, type Mode } from '../types.js';

const MODE_CHOICES: { value: Mode; name: string }[] = [
  { value: 'local', name: 'local — the client starts the MCP server with npx (needs Node.js 20+)' },
  { value: 'remote', name: "remote — the client talks to the deployment's MCP URL over HTTP" },
  { value: 'proxy', name: 'proxy — npx mcp-remote bridges a client that only runs local servers' },
];

const cannotHoldRemote = (id: ClientId): boolean =>
  !CLIENTS[id].remoteInFile || CLIENTS[id].remoteHeadersUndocumented !== undefined;

/** A question only where the flags left the choice open, and never with -q or --no-input: -q asks for the result only,
 * so it takes the defaults as a script would. */
export const mayOffer = (ctx: Context): boolean => canPrompt(ctx) && !ctx.out.quiet;

/** The login method of a remote or proxy entry, and why when the default was taken (unsaid after a question). */
export interface AuthDecision {
  choice: Pick<McpEntryOptions, 'auth' | 'token'>;
  defaulted?: AuthDefault;
}

/** The safer choice first; the one preselected is the default that a run off a terminal takes (default-auth.ts). */
export async function chooseAuth(
  ctx: Context,
  mode: Mode,
  targets: Target[],
  options: McpEntryOptions,
): Promise<AuthDecision> {
  const fallback = await defaultAuth(ctx, targets, options);
  if (!mayOffer(ctx)) return { choice: AUTH_OF[fallback.choice], defaulted: fallback };
  const clients = targets.flatMap((target) => ('client' in target ? [target.client] : []));
  const noHeaders = mode === 'remote' ? clients.filter(cannotHoldRemote).map((id) => CLIENTS[id].label) : [];
  const notFor = noHeaders.length > 0 ? ` (not for ${noHeaders.join(', ')})` : '';
  const choices: { value: AuthChoice; name: string }[] = [
    {
      value: 'static',
      name: `bearer with an access token from svcctl login — it expires and is renewed by hand${notFor}`,
    },
    {
      value: 'password',
      name: `email and password headers — sends your account password with every request${notFor}`,
    },
  ];
  if (clients.length === targets.length)
    choices.unshift({
      value: 'helper',
      name: 'bearer with the svcctl token helper — svcctl gives the client a fresh short-lived token (safest)',
    });
  const { promptChoice } = await import('../../core/prompts.js');
  const question = `Which login method should the entry use? (default: ${fallback.choice === 'helper' ? 'the token helper' : 'password headers'})`;
  return { choice: AUTH_OF[await promptChoice(ctx, question, choices, '--auth', fallback.choice)] };
}

export async function chooseClients(ctx: Context, clientEnv: ClientEnv, purpose: string): Promise<ClientId[]> {
  if (!canPrompt(ctx)) {
    throw usageError(
      `no client given: pass --client <id> (repeatable) to ${purpose}`,
      `clients: ${CLIENT_IDS.join(', ')}`,
    );
  }
  const detected = detectInstalledClients(clientEnv);
  if (detected.length === 0) {
    throw usageError(
      'no MCP client was found on this machine: pass --client <id>',
      `clients: ${CLIENT_IDS.join(', ')}`,
    );
  }
  const { promptChecklist } = await import('../../core/prompts.js');
  return promptChecklist(
    ctx,
    `Which clients? (found on this machine; space to select, enter to confirm)`,
    detected.map((client) => ({ value: client.id, name: `${client.label} (${client.id})` })),
    '--client',
  );
}

export async function chooseModeAndAuth(
  ctx: Context,
  options: McpEntryOptions,
  clients: ClientId[],
): Promise<{ options: McpEntryOptions; defaulted?: AuthDefault }> {
  const { promptChoice } = await import('../../core/prompts.js');
  const cannot: Partial<Record<Mode, string[]>> = {
    remote: clients.filter(cannotHoldRemote).map((id) => CLIENTS[id].label),
    proxy: clients.filter((id) => CLIENTS[id].noProxy !== undefined).map((id) => CLIENTS[id].label),
  };
  const modes = MODE_CHOICES.map((choice) => {
    const labels = cannot[choice.value] ?? [];
    return labels.length > 0 ? { ...choice, name: `${choice.name} (not for ${labels.join(', ')})` } : choice;
  });
  const mode = options.mode ?? (mayOffer(ctx) ? await promptChoice(ctx, 'Which mode?', modes, '--mode') : 'local');
  if (options.auth !== undefined || options.token !== undefined || mode === 'local')
    return { options: { ...options, mode, auth: options.auth ?? 'password' } };
  const { choice, defaulted } = await chooseAuth(
    ctx,
    mode,
    clients.map((client) => ({ client })),
    options,
  );
  return { options: { ...options, mode, ...choice }, defaulted };
}
