import type { FileFormat, RenderedEntry } from '../types.js';

export function nestAt(path: string[], value: unknown): Record<string, unknown> {
  let node: unknown = value;
  for (let i = path.length - 1; i >= 0; i -= 1) node = { [path[i] as string]: node };
  return node as Record<string, unknown>;
}

export function entryDocumentValue(entryPath: string[], rendered: RenderedEntry): Record<string, unknown> {
  const document = nestAt(entryPath, rendered.value);
  // VS Code writes `inputs` before `servers`.
  if (rendered.extraTopLevel?.inputs) return { inputs: rendered.extraTopLevel.inputs, ...document };
  return document;
}

export async function entryDocumentText(
  entryPath: string[],
  rendered: RenderedEntry,
  format: FileFormat,
): Promise<string> {
  const document = entryDocumentValue(entryPath, rendered);
  if (format === 'toml') {
    const { stringify } = await import('smol-toml');
    return `${stringify(document).trim()}\n`;
  }
  if (format === 'yaml') {
    const { yamlText } = await import('../../formats/yaml-document.js');
    return yamlText(document);
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}
