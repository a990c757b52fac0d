/**
 * Install links of the editors and apps of the second round of issue 9
 * (docs/clients-editors.md): Visual Studio's `vsweb+mcp:/install?<JSON>` and
 * LM Studio's `lmstudio://add_mcp?name=…&config=<base64>` (and its web page).
 * Built from the rendered entry, so they add what `svcctl mcp print` shows.
 */
import { usageError } from '../../errors.js';
import type { ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';

/**
 * Visual Studio (https://learn.microsoft.com/visualstudio/ide/mcp-servers, "Install from the web"):
 * `vsweb+mcp:/install?` + the URL-encoded JSON of one server with its `name`. The dialog it opens is
 * filled with the server; inputs are not documented for the link, so --secrets prompt is refused.
 */
export function visualStudioAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  if (rendered.extraTopLevel?.inputs !== undefined) {
    throw usageError(
      "Visual Studio's install link has no documented place for inputs (--secrets prompt)",
      'use svcctl mcp install --client visual-studio --secrets prompt, which writes the inputs into .mcp.json',
    );
  }
  const json = JSON.stringify({ name: request.name, ...rendered.value });
  const notes = request.scope === 'user' ? [] : [`the install link adds the server where Visual Studio's dialog puts it; for the ${request.scope} file use svcctl mcp install --client visual-studio --scope ${request.scope}.`];
  return { command: null, links: [{ kind: 'visual-studio', url: `vsweb+mcp:/install?${encodeURIComponent(json)}` }], notes };
}

/**
 * LM Studio (https://lmstudio.ai/docs/app/mcp/deeplink): `lmstudio://add_mcp?name=<name>&config=<base64 of
 * the entry>`; its docs' "Add to LM Studio" buttons link https://lmstudio.ai/install-mcp with the same query.
 */
export function lmStudioAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  const config = encodeURIComponent(Buffer.from(JSON.stringify(rendered.value), 'utf8').toString('base64'));
  const query = `name=${encodeURIComponent(request.name)}&config=${config}`;
  return {
    command: null,
    links: [
      { kind: 'lm-studio', url: `lmstudio://add_mcp?${query}` },
      { kind: 'web', url: `https://lmstudio.ai/install-mcp?${query}` },
    ],
    notes: [],
  };
}
