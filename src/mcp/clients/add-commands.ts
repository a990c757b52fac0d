import { usageError } from '../../core/errors.js';
import type { ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import type { ClientCommand } from './add-command-helpers.js';

export function clientCommand(client: ClientSpec, request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (!client.addCommand) {
    throw usageError(
      `${client.label} has no command line or install link that adds a server`,
      `use svcctl mcp install --client ${client.id}, or svcctl mcp print --client ${client.id} and paste the entry`,
    );
  }
  return client.addCommand(request, rendered);
}
