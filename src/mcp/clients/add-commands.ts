/**
 * The client's own way to add the same server: a command line and/or an
 * install link, from the row's addCommand (each client's module has its own).
 */
import { usageError } from '../../core/errors.js';
import type { ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { type ClientCommand } from './add-command-helpers.js';

/** The row's addCommand, or a usage error saying the client has none. */
export function clientCommand(client: ClientSpec, request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (!client.addCommand) {
    throw usageError(
      `${client.label} has no command line or install link that adds a server`,
      `use svcctl mcp install --client ${client.id}, or svcctl mcp print --client ${client.id} and paste the entry`,
    );
  }
  return client.addCommand(request, rendered);
}
