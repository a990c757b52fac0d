// One module per client beside this one; facts and sources: docs/mcp.md and docs/clients-*.md.
import { usageError } from '../../core/errors.js';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { cline } from './cline.js';
import { cursor } from './cursor.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';
import { zed } from './zed.js';
import { probe } from './paths.js';
import { kilo } from './kilo.js';
import { opencode } from './opencode.js';
import { amp } from './amp.js';
import { auggie } from './auggie.js';
import { copilot } from './copilot.js';
import { crush } from './crush.js';
import { droid } from './droid.js';
import { qwen } from './qwen.js';
import { goose } from './goose.js';
import { kiro } from './kiro.js';
import { rooCode } from './roo-code.js';
import { zooCode } from './zoo-code.js';
import { antigravity } from './antigravity.js';
import { lmStudio } from './lm-studio.js';
import { visualStudio } from './visual-studio.js';
import { continueClient } from './continue.js';
import { vscodeInsiders } from './vscode-insiders.js';
import { clineCli } from './cline-cli.js';
import { amazonQ } from './amazon-q.js';
import { warp } from './warp.js';
import { kimi } from './kimi.js';
import { xcodeCopilot } from './xcode-copilot.js';
import type { ClientEnv, ClientId, ClientSpec, Scope } from '../types.js';

/** In CLIENT_IDS order (a test checks that they agree). */
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
  opencode,
  kilo,
  copilot,
  qwen,
  auggie,
  droid,
  amp,
  crush,
  'roo-code': rooCode,
  'zoo-code': zooCode,
  kiro,
  goose,
  'visual-studio': visualStudio,
  'lm-studio': lmStudio,
  antigravity,
  continue: continueClient,
  'vscode-insiders': vscodeInsiders,
  'cline-cli': clineCli,
  'amazon-q': amazonQ,
  warp,
  kimi,
  'xcode-copilot': xcodeCopilot,
};

/** Tests only: a client that exists only in a test; the CLI's --client choices stay CLIENT_IDS. */
export function registerClient(row: ClientSpec): void {
  (CLIENTS as Record<string, ClientSpec>)[row.id] = row;
}

export function allClients(): ClientSpec[] {
  return Object.values(CLIENTS);
}

export function isClientId(value: string): value is ClientId {
  return Object.hasOwn(CLIENTS, value);
}

export function getClient(id: string): ClientSpec {
  if (!isClientId(id)) {
    throw usageError(
      `unknown client '${id}'`,
      `choose one of: ${allClients()
        .map((client) => client.id)
        .join(', ')}`,
    );
  }
  return CLIENTS[id];
}

export function checkScope(client: ClientSpec, scope: Scope): void {
  if (!client.scopes.includes(scope)) {
    throw usageError(`${client.label} has no '${scope}' scope`, `${client.label} has: ${client.scopes.join(', ')}`);
  }
}

export function detectInstalledClients(env: ClientEnv): ClientSpec[] {
  const fs = probe(env);
  return allClients().filter((client) => fs.exists(client.detectPath(env)));
}
