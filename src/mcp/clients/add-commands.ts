import { urlSecrets } from '../../config/url-secrets.js';
import { usageError } from '../../core/errors.js';
import type { ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import type { ClientCommand } from './add-command-helpers.js';

function webLinkHint(client: ClientSpec, request: EntryRequest): string {
  if (urlSecrets(request.mcpUrl).length > 0) return '; an MCP URL without a secret gets a web link';
  const references = client.variables !== 'none' || client.forwardsByName === true;
  return references && request.secrets === 'literal' ? '; --secrets ref gets a web link' : '';
}

/** A web link (cursor.com, insiders.vscode.dev, lmstudio.ai) is opened by a browser, goes through that site and stays
 * in its logs and the browser's history: it never carries a literal secret, placeholders included (they stand for one).
 * The local link (cursor://, vscode:, lmstudio://) goes straight to the app and stays. */
function withoutWebLinks(client: ClientSpec, command: ClientCommand, request: EntryRequest): ClientCommand {
  const web = command.links.filter((link) => link.kind === 'web');
  if (web.length === 0) return command;
  const hosts = web.map((link) => new URL(link.url).host).join(', ');
  return {
    ...command,
    links: command.links.filter((link) => link.kind !== 'web'),
    notes: [
      ...command.notes,
      `no ${hosts} link: a link that leaves this machine never carries literal secrets; the local link opens ${client.label} directly${webLinkHint(client, request)}`,
    ],
  };
}

export function clientCommand(client: ClientSpec, request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (!client.addCommand) {
    throw usageError(
      `${client.label} has no command line or install link that adds a server`,
      `use svcctl mcp install --client ${client.id}, or svcctl mcp print --client ${client.id} and paste the entry`,
    );
  }
  const command = client.addCommand(request, rendered);
  return rendered.literalSecrets ? withoutWebLinks(client, command, request) : command;
}
