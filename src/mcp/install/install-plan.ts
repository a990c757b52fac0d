// All plans are made first, so a file that does not parse or a conflicting entry stops the run before any write.
import { resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { CLIENTS } from '../clients/table.js';
import { droppedWhenEmpty, samePath } from '../clients/versions.js';
import { hostLabel } from '../clients/extension-hosts.js';
import { sameValue, type ConfigDocument } from '../../formats/config-document.js';
import { openJsoncDocument } from '../../formats/jsonc-document.js';
import { readSnapshot, type FileSnapshot } from '../../fs/safe-write.js';
import { openTomlDocument } from '../../formats/toml-document.js';
import { openYamlDocument, yamlText } from '../../formats/yaml-document.js';
import { genericServersKey } from '../render/generic.js';
import { genericFileFormat, type Target } from '../clients/render-entry.js';
import type { ClientEnv, ClientId, ClientSpec, FileFormat, RenderedEntry, Scope } from '../types.js';
import { refuseDuplicates } from './duplicate-entries.js';
import { checkWriteTarget, writeBoundsFor, type WriteBounds } from './write-bounds.js';

export interface FileTarget {
  clientId: ClientId | undefined;
  label: string;
  scope: Scope;
  file: string;
  format: FileFormat;
  entryPath: string[];
  client?: Pick<ClientSpec, 'namedLists' | 'newFileFields'>;
  /** Servers keys removed with our entry when it was their last one (opencode 2's `mcp.servers`). */
  dropWhenEmpty?: string[][];
  bounds?: WriteBounds;
}

/** The program most likely to hold the target open on Windows: its client (a --file target has none). */
export const heldBy = (target: FileTarget): string | undefined =>
  target.clientId === undefined ? undefined : target.label;

export type PlanStatus =
  | 'created' // new file
  | 'added' // entry added to an existing file
  | 'updated' // entry the same, VS Code inputs added
  | 'replaced' // differing entry replaced whole (--force or confirmed)
  | 'conflict' // differing entry, not allowed to replace
  | 'unchanged'
  | 'removed'
  | 'absent'; // uninstall: no such entry

export interface FilePlan {
  target: FileTarget;
  snapshot: FileSnapshot;
  /** Where links on the path lead. */
  realFile: string;
  before: string;
  after: string;
  status: PlanStatus;
  existing: unknown;
}

export function fileTargetOf(
  target: Target,
  name: string,
  scope: Scope,
  clientEnv: ClientEnv,
  config: string | undefined,
  ctx: Context,
): FileTarget {
  const file = config === undefined ? undefined : resolve(ctx.cwd, config);
  if ('format' in target) {
    // --format is only allowed with --config, so the file is always given here.
    const given = file ?? resolve(ctx.cwd, config ?? '');
    return {
      clientId: undefined,
      label: `${target.format} file`,
      scope,
      file: given,
      format: genericFileFormat(target.format),
      entryPath: [genericServersKey(target.format), name],
      bounds: writeBoundsFor(ctx, clientEnv, scope, given),
    };
  }
  const client = CLIENTS[target.client];
  const env = target.host === undefined ? clientEnv : { ...clientEnv, editorHost: target.host };
  const path = file ?? client.configPath(env, scope);
  return {
    clientId: client.id,
    label: target.host === undefined ? client.label : `${client.label} in ${hostLabel(target.host)}`,
    scope,
    file: path,
    format: client.format,
    entryPath: client.entryPath(name, scope, clientEnv),
    client,
    dropWhenEmpty: droppedWhenEmpty(client, clientEnv, scope),
    bounds: writeBoundsFor(ctx, clientEnv, scope, path),
  };
}

export const checkTarget = (target: FileTarget): Promise<string> =>
  target.bounds ? checkWriteTarget(target.file, target.bounds) : Promise.resolve(target.file);

export function openDocument(
  format: FileFormat,
  text: string,
  file: string,
  client?: Pick<ClientSpec, 'namedLists'>,
): ConfigDocument {
  if (format === 'yaml') return openYamlDocument(text, file, { namedLists: client?.namedLists });
  return format === 'toml' ? openTomlDocument(text, file) : openJsoncDocument(text, file);
}

export function withInputs(text: string, target: FileTarget, rendered: RenderedEntry): string {
  let result = text;
  for (const input of rendered.extraTopLevel?.inputs ?? []) {
    result = openJsoncDocument(result, target.file).upsertById('inputs', input);
  }
  return result;
}

/** `given`: the file as already read, to plan again after another program changed it. */
export async function planInstall(
  target: FileTarget,
  rendered: RenderedEntry,
  options: { force: boolean },
  given?: FileSnapshot,
): Promise<FilePlan> {
  const realFile = await checkTarget(target);
  const snapshot = given ?? (await readSnapshot(target.file));
  const before = snapshot.text;
  // Continue's config.yaml needs name and version at the top (newFileFields).
  const start = snapshot.exists ? before : newFileStart(target);
  const document = openDocument(target.format, start, target.file, target.client);
  refuseDuplicates(document, target.entryPath.slice(0, -1), target.file);
  const existing = document.get(target.entryPath);
  const entrySame = existing !== undefined && sameValue(existing, rendered.value);
  const withEntry = entrySame ? start : document.set(target.entryPath, rendered.value);
  const after =
    target.format === 'toml' || target.format === 'yaml' ? withEntry : withInputs(withEntry, target, rendered);
  let status: PlanStatus;
  if (!snapshot.exists) status = 'created';
  else if (existing === undefined) status = 'added';
  else if (!entrySame) status = options.force ? 'replaced' : 'conflict';
  else status = after === before ? 'unchanged' : 'updated';
  return { target, snapshot, realFile, before, after, status, existing };
}

export async function planUninstall(target: FileTarget, given?: FileSnapshot): Promise<FilePlan> {
  const realFile = await checkTarget(target);
  const snapshot = given ?? (await readSnapshot(target.file));
  const before = snapshot.text;
  if (!snapshot.exists)
    return { target, snapshot, realFile, before, after: before, status: 'absent', existing: undefined };
  const document = openDocument(target.format, before, target.file, target.client);
  const existing = document.get(target.entryPath);
  if (existing === undefined) return { target, snapshot, realFile, before, after: before, status: 'absent', existing };
  return { target, snapshot, realFile, before, after: textWithoutEntry(target, document), status: 'removed', existing };
}

export function textWithoutEntry(target: FileTarget, document: ConfigDocument): string {
  const removed = document.get(target.entryPath);
  const text = withoutEmptyParent(target, document.remove(target.entryPath));
  return target.format === 'toml' || target.format === 'yaml' ? text : withoutUnusedInputs(target, text, removed);
}

const inputIds = (value: unknown): Set<string> =>
  new Set([...JSON.stringify(value ?? null).matchAll(/\$\{input:([^}]+)\}/g)].map((match) => match[1]!));

/** VS Code's `inputs` that only the removed entry used (its `--secrets prompt` questions, withInputs above) go with it,
 * and the `inputs` list when nothing is left in it: an input nothing references is a question nobody asks. */
function withoutUnusedInputs(target: FileTarget, text: string, removed: unknown): string {
  const document = openJsoncDocument(text, target.file);
  const inputs = document.get(['inputs']);
  const used = inputIds(removed);
  if (!Array.isArray(inputs) || used.size === 0) return text;
  const { inputs: _, ...rest } = document.get([]) as Record<string, unknown>;
  const stillUsed = inputIds(rest);
  const kept = inputs.filter((input: unknown) => {
    const id = (input as { id?: unknown } | null)?.id;
    return typeof id !== 'string' || !used.has(id) || stillUsed.has(id);
  });
  if (kept.length === inputs.length) return text;
  return kept.length === 0 ? document.remove(['inputs']) : document.set(['inputs'], kept);
}

/** What svcctl writes into a new file before the entry: Continue's config.yaml needs name and version first; opencode
 * adds its `$schema` to a config without one, and a file changed since is not svcctl's any more. */
export function newFileStart(target: FileTarget): string {
  const fields = target.client?.newFileFields;
  if (fields === undefined || target.format === 'toml') return '';
  return target.format === 'yaml' ? yamlText(fields) : `${JSON.stringify(fields, null, 2)}\n`;
}

function withoutEmptyParent(target: FileTarget, text: string): string {
  const parent = target.entryPath.slice(0, -1);
  if (!target.dropWhenEmpty?.some((path) => samePath(path, parent))) return text;
  const document = openDocument(target.format, text, target.file, target.client);
  const left = document.get(parent);
  const empty = left !== null && typeof left === 'object' && !Array.isArray(left) && Object.keys(left).length === 0;
  return empty ? document.remove(parent) : text;
}

export const writesFile = (plan: FilePlan): boolean => plan.status !== 'conflict' && plan.after !== plan.before;
