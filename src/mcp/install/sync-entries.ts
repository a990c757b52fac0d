/**
 * Each declared server as each client would hold it, built by the same code as `mcp install` (entry-request.ts,
 * render-entry.ts). A server that a client cannot take (no remote entries, no variables for a secret) becomes a
 * failed entry with its reason, never a whole run stopped: a fleet's file names many clients.
 */
import type { Context } from '../../core/context.js';
import { isCliError, usageError } from '../../core/errors.js';
import { foreign } from '../../core/output.js';
import { optionalBaseUrl } from '../../config/base-url.js';
import { envName, legacyEnvName } from '../../config/settings.js';
import { renderEntry } from '../clients/render-entry.js';
import { CLIENTS } from '../clients/table.js';
import { quote } from '../render/shell-quote.js';
import type { ClientId } from '../types.js';
import { buildEntryRequest, type McpEntryOptions } from './entry-request.js';
import { lineOfKey, type DeclaredServer, type SyncDeclaration } from './sync-declaration.js';
import type { DeclaredEntry } from './sync-plan.js';

/** A context whose base URL is the server's own (base_url, or the deployment's), so the URLs resolve as install's. */
export async function serverContexts(ctx: Context, declaration: SyncDeclaration): Promise<Map<string, Context>> {
  const contexts = new Map<string, Context>();
  const needsFile = declaration.servers.some((server) => server.deployment !== undefined);
  const saved = needsFile
    ? (await (await import('../../config/deployments-file.js')).readDeployments(ctx)).deployments
    : [];
  for (const [index, server] of declaration.servers.entries()) {
    let baseUrl = server.baseUrl;
    if (server.deployment !== undefined) {
      const found = saved.find((deployment) => deployment.name === server.deployment);
      if (found === undefined) {
        const line = lineOfKey(declaration.text, index, 'deployment');
        throw usageError(
          `${foreign(declaration.file)}:${line}: 'deployment' names no saved deployment '${foreign(server.deployment, 80)}'`,
          // A member's `login --save` names a deployment by its host, not by the team's name for it.
          foreign(
            `save it under this name: svcctl deployment add ${quote(server.deployment, 'posix')} <its API base URL, https://…/api>${saved.length > 0 ? ` (saved here: ${saved.map((d) => d.name).join(', ')})` : ''}; or give base_url instead`,
          ),
        );
      }
      baseUrl = found.baseUrl;
    }
    contexts.set(server.name, baseUrl === undefined ? ctx : declaredDeployment(ctx, baseUrl));
  }
  return contexts;
}

/**
 * The declared deployment and nothing else: an MCP URL from the environment (a project's `.envrc`) or a flag would
 * point the entries elsewhere, unseen by the approval, so the MCP URL is the one the base URL gives.
 */
function declaredDeployment(ctx: Context, baseUrl: string): Context {
  const env = { ...ctx.env };
  delete env[envName('MCP_URL')];
  delete env[legacyEnvName('MCP_URL')];
  return { ...ctx, env, globals: { ...ctx.globals, baseUrl, mcpUrl: undefined } };
}

/** What the approval is pinned to besides the text: the deployment each server resolves to on this machine. */
export function resolvedDeployments(contexts: Map<string, Context>): string {
  return [...contexts].map(([name, context]) => `${name}\t${optionalBaseUrl(context) ?? ''}`).join('\n');
}

function optionsOf(server: DeclaredServer, client: ClientId, declaration: SyncDeclaration): McpEntryOptions {
  return {
    client: [client],
    name: server.name,
    mode: server.mode,
    auth: server.auth,
    scope: declaration.scope,
    projectDir: declaration.projectDir,
    ...(server.token !== undefined ? { token: server.token } : {}),
    ...(server.secrets !== undefined ? { secrets: server.secrets } : {}),
    ...(server.package !== undefined ? { package: server.package } : {}),
  };
}

const HOLDS_SECRET =
  'reads no environment variables, so its entry would hold the password or token: sync writes no literal secret ' +
  '(declare auth = "bearer" with token = "helper", or install this client by hand with svcctl mcp install)';

async function entryFor(
  serverCtx: Context,
  server: DeclaredServer,
  client: ClientId,
  declaration: SyncDeclaration,
): Promise<DeclaredEntry> {
  try {
    const request = await buildEntryRequest(serverCtx, { client }, optionsOf(server, client, declaration), {
      literals: 'placeholders',
    });
    const rendered = renderEntry(request);
    if (rendered.literalSecrets) return { name: server.name, failed: `${CLIENTS[client].label} ${HOLDS_SECRET}` };
    return { name: server.name, rendered };
  } catch (error) {
    if (!isCliError(error)) throw error;
    return { name: server.name, failed: error.hint ? `${error.message} (${error.hint})` : error.message };
  }
}

export async function declaredEntries(
  contexts: Map<string, Context>,
  declaration: SyncDeclaration,
  client: ClientId,
): Promise<DeclaredEntry[]> {
  const entries: DeclaredEntry[] = [];
  for (const server of declaration.servers)
    entries.push(await entryFor(contexts.get(server.name)!, server, client, declaration));
  return entries;
}
