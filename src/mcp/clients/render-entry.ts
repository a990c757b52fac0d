// Pure: no file system, no environment.
import { usageError } from '../../core/errors.js';
import { CLIENTS } from './table.js';
import { genericEntry } from '../render/generic.js';
import { pasteShellOf, setFromCommand } from '../render/shell-quote.js';
import { checkRemotePossible, localEntry, proxyEntry, remoteEntry } from '../render/json-clients.js';
import { tokenHelperEntry, tokenHelperNotes } from '../render/token-helper.js';
import {
  CA_VARIABLE,
  caCertsValue,
  credentialKeys,
  ESCAPED_DOLLAR_BRACE,
  holdsLiteralSecret,
  LITERAL_DOLLAR_VAR,
  PROXY_HEADER_PREFIX,
  VAR_ACCESS_TOKEN,
  VAR_AUTH_HEADER,
  VARIABLE_OF,
  vscodeInputs,
} from '../render/values.js';
import type { ClientSpec, EntryRequest, GenericFormat, Mode, RenderedEntry, SecretsHow } from '../types.js';

export type Target = EntryRequest['target'];

function canReference(client: ClientSpec): boolean {
  return client.variables !== 'none' || client.forwardsByName === true;
}

/** References where the client can use them, else literal values (docs/mcp.md). */
export function defaultSecrets(target: Target): SecretsHow {
  if ('format' in target) return 'literal';
  return canReference(CLIENTS[target.client]) ? 'ref' : 'literal';
}

export function checkSecrets(target: Target, secrets: SecretsHow): void {
  if ('format' in target) {
    if (secrets === 'prompt')
      throw usageError(
        '--secrets prompt is for VS Code and Visual Studio (--client vscode, visual-studio): it uses their inputs',
      );
    if (secrets === 'ref' && target.format === 'toml') {
      throw usageError(
        '--format toml holds literal values (a TOML client does not expand variables)',
        'use --secrets literal, or --client codex to forward variables by name',
      );
    }
    return;
  }
  const client = CLIENTS[target.client];
  if (secrets === 'prompt' && !client.promptInputs) {
    throw usageError(
      `--secrets prompt is only for VS Code and Visual Studio (their inputs); ${client.label} takes ${canReference(client) ? 'ref or literal' : 'literal'}`,
    );
  }
  if (secrets === 'ref' && !canReference(client)) {
    throw usageError(
      `${client.label} does not expand variables in its config file`,
      'use --secrets literal (the file is then left readable only by you)',
    );
  }
}

/** A token helper entry is stdio, so a file that cannot hold one is refused before any value is asked for. */
export function checkMode(target: Target, mode: Mode, tokenHelper: boolean): void {
  if ('format' in target || mode !== 'remote' || tokenHelper) return;
  const client = CLIENTS[target.client];
  if (!client.renderer) checkRemotePossible(client);
}

function renderClientValue(client: ClientSpec, request: EntryRequest): Record<string, unknown> {
  if (request.tokenHelper !== undefined) return tokenHelperEntry(client, request, request.tokenHelper);
  const renderer = client.renderer;
  if (renderer) return renderer[request.mode](client, request);
  if (request.mode === 'local') return localEntry(client, request);
  if (request.mode === 'remote') return remoteEntry(client, request);
  return proxyEntry(client, request);
}

function clientNotes(client: ClientSpec, request: EntryRequest): string[] {
  const notes = [client.afterChangeNote(request.scope)];
  // No secret in the entry: the notes about variables and tokens do not apply.
  if (request.tokenHelper !== undefined)
    return [...notes, ...tokenHelperNotes(client, request, request.tokenHelper), ...machineNotes(client, request)];
  if (request.secrets === 'ref' && client.guiApp) {
    const alternative = client.promptInputs ? '--secrets prompt (or --secrets literal)' : '--secrets literal';
    notes.push(
      `${client.label} started from a dock or start menu often does not see variables exported in a shell profile; start it from a shell that has them, or use ${alternative}.`,
    );
  }
  notes.push(...(client.extraNotes?.(request) ?? []), ...machineNotes(client, request));
  if (request.mode === 'proxy' && client.keepsUnsetReferences) {
    notes.push(
      `${client.label} expands \${VAR} in args itself, so the --header arguments name ${PROXY_HEADER_PREFIX}… variables that only the entry's env sets: ${client.label} leaves them as written, mcp-remote reads them from its env, and no secret shows in the process list. Do not export ${PROXY_HEADER_PREFIX}… variables.`,
    );
  } else if (request.mode === 'proxy' && client.expandsInArgs) {
    notes.push(
      `${client.label} expands \${VAR} in args itself, so the --header arguments write \`\${\` as \`${ESCAPED_DOLLAR_BRACE}\`: mcp-remote receives \`\${NAME}\` and reads the value from the entry's env, and no secret shows in the process list. Leave ${LITERAL_DOLLAR_VAR} unset.`,
    );
  }
  if (tokenVariable(request) === VAR_AUTH_HEADER) {
    notes.push(
      `On Windows Codex starts mcp-remote through cmd, which splits an argument with a space ("Authorization:Bearer …"), so this entry forwards the whole header value: set ${VAR_AUTH_HEADER} to "Bearer " followed by the token (\`${setFromCommand(pasteShellOf(request), VAR_AUTH_HEADER, 'svcctl token', 'Bearer ')}\`).`,
    );
  }
  if (request.mode !== 'local' && request.auth === 'bearer') {
    notes.push(bearerRenewalNote(request));
  }
  return notes;
}

/** What the entry took from this machine: both are paths, so they hold no secret. */
function machineNotes(client: ClientSpec, request: EntryRequest): string[] {
  const notes: string[] = [];
  const again = `run \`svcctl mcp install --client ${client.id} --force\` again; \`svcctl mcp doctor\` says when the path is gone.`;
  if (request.runner !== undefined && request.platform === 'win32') {
    notes.push(
      `npx is at ${request.runner.command}: ${client.label} started from the Start menu gets the PATH of the registry, which svcctl cannot read (fnm puts node only on a shell's PATH), so the entry runs that path with PATH set to its folder (for node, which npm's .cmd shims run from PATH) and Windows' system folders (for cmd.exe). After switching Node versions or removing this one, ${again}`,
    );
  } else if (request.runner !== undefined) {
    notes.push(
      `npx is at ${request.runner.command}, outside the PATH ${client.label} gets when started from a dock or launcher, so the entry runs that path with its folder first on PATH (for its node). After switching Node versions or removing this one, ${again}`,
    );
  }
  if (request.runnerUnwritten !== undefined) notes.push(request.runnerUnwritten);
  if (request.caCerts !== undefined) {
    const how =
      client.forwardsByName && request.secrets === 'ref' && request.tokenHelper === undefined
        ? 'forwarded by name'
        : caCertsValue(client.variables, request) === request.caCerts
          ? 'its path'
          : 'a reference';
    notes.push(
      `${CA_VARIABLE} is set, so the entry carries it (${how}): some clients start servers with a cleaned environment, and npx behind a TLS-inspecting proxy then fails with SELF_SIGNED_CERT_IN_CHAIN.`,
    );
  }
  return notes;
}

/** A literal token makes the entry differ from what a new install writes, so install then needs --force. */
function bearerRenewalNote(request: EntryRequest): string {
  const secrets = request.secrets;
  const start = 'Access tokens expire: when the server starts rejecting the token, run `svcctl login --save` again';
  if (secrets === 'literal')
    return `${start}, then re-run \`svcctl mcp install\` with the same flags plus --force (the entry holds the old token, so it now differs).`;
  const shell = pasteShellOf(request);
  if (secrets === 'ref' && tokenVariable(request) === VAR_AUTH_HEADER)
    return `${start}, then \`${setFromCommand(shell, VAR_AUTH_HEADER, 'svcctl token', 'Bearer ')}\` again and restart the client.`;
  if (secrets === 'ref')
    return `${start}, then \`${setFromCommand(shell, VAR_ACCESS_TOKEN, 'svcctl token')}\` and restart the client.`;
  return `${start} and give the client the new token (\`svcctl token\` prints it).`;
}

/** A Codex proxy entry on Windows forwards "Bearer <token>" whole in SERVICE_AUTH_HEADER (codexBearerVariable). */
function tokenVariable(request: EntryRequest): string {
  if (request.secrets !== 'ref' || request.auth !== 'bearer' || request.mode !== 'proxy') return VAR_ACCESS_TOKEN;
  const renderer = 'client' in request.target ? CLIENTS[request.target.client].renderer : undefined;
  return renderer?.proxyTokenVariable?.(request.platform) ?? VAR_ACCESS_TOKEN;
}

function variablesToExport(request: EntryRequest): string[] {
  if (request.secrets !== 'ref') return [];
  return credentialKeys(request).map((key) => (key === 'token' ? tokenVariable(request) : VARIABLE_OF[key]));
}

export function renderEntry(request: EntryRequest): RenderedEntry {
  const literalSecrets = holdsLiteralSecret(request);
  if ('format' in request.target) {
    return {
      value: genericEntry(request.target.format, request),
      literalSecrets,
      variablesToExport: variablesToExport(request),
      notes: [],
    };
  }
  const client = CLIENTS[request.target.client];
  const rendered: RenderedEntry = {
    value: renderClientValue(client, request),
    literalSecrets,
    variablesToExport: variablesToExport(request),
    notes: clientNotes(client, request),
  };
  if (request.secrets === 'prompt')
    rendered.extraTopLevel = { inputs: vscodeInputs(request.name, credentialKeys(request), client.wordInputIds) };
  return rendered;
}

export function genericFileFormat(format: GenericFormat): 'jsonc' | 'toml' {
  return format === 'toml' ? 'toml' : 'jsonc';
}
