/**
 * The table of the nine MCP clients svcctl configures. Each row (a ClientSpec)
 * says where the client's file is per OS and scope, where our entry sits in
 * it, what syntax it has for variables and what it needs after a change. The
 * rows live in clients/*.ts; the facts come from the MCP clients reference.
 */
import { usageError } from '../errors.js';
import { claudeCode, claudeDesktop } from './clients/claude.js';
import { codex, gemini } from './clients/cli-agents.js';
import { cline, cursor, vscode, windsurf, zed } from './clients/editors.js';
import { probe } from './clients/paths.js';
import { CLIENT_IDS, type ClientEnv, type ClientId, type ClientSpec, type Scope } from './types.js';

export const CLIENTS: Readonly<Record<ClientId, ClientSpec>> = {
  'claude-desktop': claudeDesktop,
  'claude-code': claudeCode,
  cursor,
  vscode,
  windsurf,
  codex,
  gemini,
  cline,
  zed,
};

export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}

export function getClient(id: string): ClientSpec {
  if (!isClientId(id)) {
    throw usageError(`unknown client '${id}'`, `choose one of: ${CLIENT_IDS.join(', ')}`);
  }
  return CLIENTS[id];
}

/** Checks that the client has the scope, with a usage error naming the scopes it has. */
export function checkScope(client: ClientSpec, scope: Scope): void {
  if (!client.scopes.includes(scope)) {
    throw usageError(
      `${client.label} has no '${scope}' scope`,
      `${client.label} has: ${client.scopes.join(', ')}`,
    );
  }
}

/** Clients whose folder exists on this machine, in table order. */
export function detectInstalledClients(env: ClientEnv): ClientSpec[] {
  const fs = probe(env);
  return CLIENT_IDS.map((id) => CLIENTS[id]).filter((client) => fs.exists(client.detectPath(env)));
}
