// Without a terminal a missing choice is a usage error naming --client, so a script never waits for an answer.
import { canPrompt, type Context } from '../../core/context.js';
import { usageError } from '../../core/errors.js';
import { CLIENTS, detectInstalledClients } from '../clients/table.js';
import type { McpEntryOptions } from './entry-request.js';
import type { Target } from '../clients/render-entry.js';
import { CLIENT_IDS, type ClientEnv, type ClientId, type Mode } from '../types.js';

const MODE_CHOICES: { value: Mode; name: string }[] = [
  { value: 'local', name: 'local — the client starts the MCP server with npx (needs Node.js 20+)' },
  { value: 'remote', name: "remote — the client talks to the deployment's MCP URL over HTTP" },
  { value: 'proxy', name: 'proxy — npx mcp-remote bridges a client that only runs local servers' },
];

type AuthChoice = 'helper' | 'static' | 'password';

const AUTH_OF: Record<AuthChoice, Pick<McpEntryOptions, 'auth' | 'token'>> = {
  helper: { auth: 'bearer', token: 'helper' },
  static: { auth: 'bearer', token: 'static' },
  password: { auth: 'password' },
};

const cannotHoldRemote = (id: ClientId): boolean =>
  !CLIENTS[id].remoteInFile || CLIENTS[id].remoteHeadersUndocumented !== undefined;

/** The safer choice first (the default): a token helper sends short-lived tokens, password headers send the password. */
export async function chooseAuth(
  ctx: Context,
  mode: Mode,
  targets: Target[],
): Promise<Pick<McpEntryOptions, 'auth' | 'token'>> {
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
  // A generic --format file names no client, so it cannot hold a client's headers command.
  if (clients.length === targets.length)
    choices.unshift({
      value: 'helper',
      name: 'bearer with the svcctl token helper — svcctl gives the client a fresh short-lived token (safest)',
    });
  const { promptChoice } = await import('../../ui/prompts.js');
  return AUTH_OF[await promptChoice(ctx, 'Which login method should the entry use?', choices, '--auth')];
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
  const { promptChecklist } = await import('../../ui/prompts.js');
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
): Promise<McpEntryOptions> {
  const { promptChoice } = await import('../../ui/prompts.js');
  const cannot: Partial<Record<Mode, string[]>> = {
    remote: clients.filter(cannotHoldRemote).map((id) => CLIENTS[id].label),
    proxy: clients.filter((id) => CLIENTS[id].noProxy !== undefined).map((id) => CLIENTS[id].label),
  };
  const modes = MODE_CHOICES.map((choice) => {
    const labels = cannot[choice.value] ?? [];
    return labels.length > 0 ? { ...choice, name: `${choice.name} (not for ${labels.join(', ')})` } : choice;
  });
  const mode = options.mode ?? (await promptChoice(ctx, 'Which mode?', modes, '--mode'));
  if (options.auth !== undefined || options.token !== undefined || mode === 'local')
    return { ...options, mode, auth: options.auth ?? 'password' };
  return {
    ...options,
    mode,
    ...(await chooseAuth(
      ctx,
      mode,
      clients.map((client) => ({ client })),
    )),
  };
}
