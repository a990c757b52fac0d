// Without a terminal a missing choice is a usage error naming --client, so a script never waits for an answer.
import { canPrompt, type Context } from '../../core/context.js';
import { usageError } from '../../core/errors.js';
import { CLIENTS, detectInstalledClients } from '../clients/table.js';
import type { McpEntryOptions } from './entry-request.js';
import { CLIENT_IDS, type AuthMethod, type ClientEnv, type ClientId, type Mode } from '../types.js';

const MODE_CHOICES: { value: Mode; name: string }[] = [
  { value: 'local', name: 'local — the client starts the MCP server with npx (needs Node.js 20+)' },
  { value: 'remote', name: "remote — the client talks to the deployment's MCP URL over HTTP" },
  { value: 'proxy', name: 'proxy — npx mcp-remote bridges a client that only runs local servers' },
];

const AUTH_CHOICES: { value: AuthMethod; name: string }[] = [
  { value: 'password', name: 'password — email and password headers' },
  { value: 'bearer', name: 'bearer — an access token from svcctl login (it expires)' },
];

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
  const noRemoteInFile = clients
    .filter((id) => !CLIENTS[id].remoteInFile || CLIENTS[id].remoteHeadersUndocumented !== undefined)
    .map((id) => CLIENTS[id].label);
  const modes = MODE_CHOICES.map((choice) =>
    choice.value === 'remote' && noRemoteInFile.length > 0
      ? { ...choice, name: `${choice.name} (not for ${noRemoteInFile.join(', ')})` }
      : choice,
  );
  const mode = options.mode ?? (await promptChoice(ctx, 'Which mode?', modes, '--mode'));
  const auth =
    options.auth ??
    (mode === 'local' ? 'password' : await promptChoice(ctx, 'Which login method?', AUTH_CHOICES, '--auth'));
  return { ...options, mode, auth };
}
