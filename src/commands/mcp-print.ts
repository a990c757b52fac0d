/** `svcctl mcp print` and `svcctl mcp command`: the entry as the client's file would hold it, and the client's own
 * command line or install link. Nothing is written. A secret that would be literal is shown as a placeholder
 * (<SERVICE_PASSWORD>) unless --show-secrets is given: then the values are printed on purpose, not redacted. */
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { getClient } from '../mcp/clients/table.js';
import { clientCommand } from '../mcp/clients/add-commands.js';
import { buildEntryRequest, clientEnvOf, targetsOf, type McpEntryOptions } from '../mcp/install/entry-request.js';
import { entryDocumentText, entryDocumentValue } from '../mcp/render/document.js';
import { genericServersKey } from '../mcp/render/generic.js';
import { genericFileFormat, renderEntry, type Target } from '../mcp/clients/render-entry.js';
import type { EntryRequest, FileFormat, RenderedEntry } from '../mcp/types.js';
import { maskEntry } from '../redaction/mask-entry.js';
import { exportWord, pasteShellOf } from '../mcp/render/shell-quote.js';

function singleTarget(options: McpEntryOptions, command: string): Target {
  const targets = targetsOf(options);
  const [target] = targets;
  if (target === undefined) {
    const alternative = command === 'print' ? ' (or --format mcpServers|servers|toml)' : '';
    throw usageError(`svcctl mcp ${command} needs --client <id>${alternative}`);
  }
  if (targets.length > 1) throw usageError(`svcctl mcp ${command} takes one --client at a time`);
  return target;
}

async function prepare(
  ctx: Context,
  options: McpEntryOptions,
  command: string,
): Promise<{ request: EntryRequest; rendered: RenderedEntry }> {
  const target = singleTarget(options, command);
  const request = await buildEntryRequest(ctx, target, options, {
    literals: options.showSecrets ? 'values' : 'placeholders',
  });
  return { request, rendered: renderEntry(request) };
}

function reportAdvice(ctx: Context, request: EntryRequest, rendered: RenderedEntry, showSecrets: boolean): void {
  if (rendered.literalSecrets && !showSecrets)
    ctx.out.info('literal secrets are shown as placeholders; --show-secrets prints the values');
  if (rendered.variablesToExport.length > 0)
    ctx.out.info(
      `${exportWord(pasteShellOf(request))} before starting the client: ${rendered.variablesToExport.join(', ')}`,
    );
  if (request.mode === 'local' || request.mode === 'proxy')
    ctx.out.debug('local and proxy mode need Node.js 20 or later and npx on the client PATH');
  for (const note of rendered.notes) ctx.out.info(note);
}

export async function runMcpPrint(ctx: Context, options: McpEntryOptions): Promise<void> {
  const { request, rendered } = await prepare(ctx, options, 'print');
  const target = request.target;
  let entryPath: string[];
  let format: FileFormat;
  let file: string | null = options.config ?? null;
  if ('format' in target) {
    entryPath = [genericServersKey(target.format), request.name];
    format = genericFileFormat(target.format);
  } else {
    const client = getClient(target.client);
    const env = clientEnvOf(ctx, options);
    entryPath = client.entryPath(request.name, request.scope, env);
    format = client.format;
    file ??= client.configPath(env, request.scope);
  }
  const text = await entryDocumentText(entryPath, rendered, format);
  const shown = { secret: options.showSecrets === true };
  if (ctx.globals.json) {
    ctx.out.jsonResult(
      {
        client: 'client' in target ? target.client : null,
        format: 'format' in target ? target.format : format,
        file,
        scope: request.scope,
        name: request.name,
        mode: request.mode,
        auth: request.auth,
        secrets: request.secrets,
        entry_path: entryPath,
        entry: rendered.value,
        inputs: rendered.extraTopLevel?.inputs ?? null,
        document: format === 'toml' ? text : entryDocumentValue(entryPath, rendered),
        literal_secrets: rendered.literalSecrets,
        variables_to_export: rendered.variablesToExport,
        notes: rendered.notes,
      },
      shown,
    );
    return;
  }
  if (file !== null)
    ctx.out.info(`${'client' in target ? `${getClient(target.client).label}, ${request.scope} scope: ` : ''}${file}`);
  ctx.out.raw(text, shown);
  reportAdvice(ctx, request, rendered, options.showSecrets === true);
}

export async function runMcpCommand(ctx: Context, options: McpEntryOptions): Promise<void> {
  const { request, rendered } = await prepare(ctx, options, 'command');
  if (!('client' in request.target))
    throw usageError('svcctl mcp command needs --client <id> (a generic --format has no command)');
  // Built from the masked entry unless asked: a URL's token or an argument's password would be in the line.
  const shownEntry = options.showSecrets
    ? rendered
    : { ...rendered, value: maskEntry(rendered.value, ctx.secrets) as typeof rendered.value };
  const result = clientCommand(getClient(request.target.client), request, shownEntry);
  const shown = { secret: options.showSecrets === true };
  if (ctx.globals.json) {
    ctx.out.jsonResult(
      {
        client: request.target.client,
        name: request.name,
        scope: request.scope,
        mode: request.mode,
        command: result.command,
        links: result.links,
        literal_secrets: rendered.literalSecrets,
        variables_to_export: rendered.variablesToExport,
        notes: [...result.notes, ...rendered.notes],
      },
      shown,
    );
    return;
  }
  if (result.command !== null) ctx.out.result(result.command, shown);
  for (const link of result.links) ctx.out.result(link.url, shown);
  for (const note of result.notes) ctx.out.info(note);
  reportAdvice(ctx, request, rendered, options.showSecrets === true);
}
