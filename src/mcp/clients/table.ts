/**
 * The table of the MCP clients svcctl configures. Each row (a ClientSpec)
 * says where the client's file is per OS and scope, where our entry sits in
 * it, what syntax it has for variables and what it needs after a change. The
 * rows live in clients/*.ts; the facts come from the MCP clients reference.
 */
import { usageError } from '../../errors.js';
import { claudeCode, claudeDesktop } from './claude.js';
import { codex, gemini } from './cli-agents.js';
import { cline, cursor, vscode, windsurf, zed } from './editors.js';
import { probe } from './paths.js';
import { kilo, opencode } from './agents-opencode.js';
import { amp, auggie, copilot, crush, droid, qwen } from './agents-json.js';
import { goose, kiro, rooCode } from './editors-more.js';
import { antigravity, lmStudio, visualStudio } from './editors-apps.js';
import { continueClient } from './continue.js';
import { type ClientEnv, type ClientId, type ClientSpec, type Scope } from '../types.js';

/** The table, in CLIENT_IDS order (a test checks that they agree). */
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
  // CLI agents
  opencode,
  kilo,
  copilot,
  qwen,
  auggie,
  droid,
  amp,
  crush,
  // editors and apps
  'roo-code': rooCode,
  kiro,
  goose,
  // editors and apps
  'visual-studio': visualStudio,
  'lm-studio': lmStudio,
  antigravity,
  continue: continueClient,
};

/**
 * Adds a row to the table of this process (tests: a client that exists only
 * in a test, rendered, installed, listed and doctored through the library
 * functions; the CLI's --client choices stay CLIENT_IDS). Never called by src/.
 */
export function registerClient(row: ClientSpec): void {
  (CLIENTS as Record<string, ClientSpec>)[row.id] = row;
}

/** Every row, in table order (rows a test registered last). */
export function allClients(): ClientSpec[] {
  return Object.values(CLIENTS);
}

export function isClientId(value: string): value is ClientId {
  return Object.hasOwn(CLIENTS, value);
}

export function getClient(id: string): ClientSpec {
  if (!isClientId(id)) {
    throw usageError(`unknown client '${id}'`, `choose one of: ${allClients().map((client) => client.id).join(', ')}`);
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
  return allClients().filter((client) => fs.exists(client.detectPath(env)));
}
