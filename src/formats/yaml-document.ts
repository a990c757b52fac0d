// A named list (Continue's `mcpServers:`) is matched by its items' `name:` field; a new item is appended.
import { isMap, isSeq, parseDocument, stringify, type Document } from 'yaml';
import {
  checkEdit,
  detectEol,
  parseFailure,
  positionAt,
  sameValue,
  unsafeShape,
  valueAt,
  type ConfigDocument,
} from './config-document.js';

export function yamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}

export interface YamlOptions {
  namedLists?: readonly (readonly string[])[];
}

const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((key, index) => key === b[index]);

function parseYaml(text: string, file: string): Document.Parsed {
  const document = parseDocument(text, { keepSourceTokens: false, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    const linePos = error.linePos?.[0];
    const position = linePos ? { line: linePos.line, column: linePos.col } : positionAt(text, error.pos[0]);
    const reason = error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'invalid YAML';
    throw parseFailure(file, position, reason);
  }
  if (document.contents !== null && !isMap(document.contents)) {
    throw unsafeShape(file, 'the top level of the file is not a map of keys');
  }
  return document;
}

// Aliases that refer to aliases grow exponentially when expanded ("billion laughs"): the yaml package stops at
// maxAliasCount with a plain ReferenceError, which is the file's problem, not a bug of svcctl.
const MAX_ALIAS_COUNT = 100;

function expanded(document: Document.Parsed, file: string): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw unsafeShape(
      file,
      `its YAML aliases expand past ${MAX_ALIAS_COUNT} copies (an alias bomb?): svcctl does not read it`,
      'remove the aliases that refer to other aliases, or fix the file by hand',
    );
  }
}

/** Named lists become maps keyed by the items' names, so checkEdit can compare. */
function model(document: Document.Parsed, file: string, namedLists: readonly (readonly string[])[]): unknown {
  const root = (expanded(document, file) ?? {}) as Record<string, unknown>;
  for (const listPath of namedLists) {
    const list = valueAt(root, listPath);
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw unsafeShape(file, `${listPath.join('.')} is not a list`);
    const byName: Record<string, unknown> = {};
    list.forEach((item, index) => {
      const name = item && typeof item === 'object' ? (item as Record<string, unknown>).name : undefined;
      byName[typeof name === 'string' && !Object.hasOwn(byName, name) ? name : `#${index}`] = item;
    });
    let parent: Record<string, unknown> = root;
    for (const key of listPath.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    parent[listPath.at(-1) as string] = byName;
  }
  return root;
}

/** The yaml package throws a plain Error otherwise. */
function guardCollections(document: Document.Parsed, file: string, parents: (string | number)[]): void {
  for (let length = 1; length <= parents.length; length += 1) {
    const node = document.getIn(parents.slice(0, length), true);
    if (node === undefined || node === null) return;
    if (!isMap(node) && !isSeq(node))
      throw unsafeShape(file, `${parents.slice(0, length).join('.')} is not a map of entries`);
  }
}

export function openYamlDocument(text: string, file: string, options: YamlOptions = {}): ConfigDocument {
  const namedLists = options.namedLists ?? [];
  const parsed = parseYaml(text, file);
  const before = model(parsed, file, namedLists);
  const eol = detectEol(text);
  const listOf = (path: readonly string[]) => namedLists.find((list) => samePath(list, path.slice(0, -1)));

  /** -1: a named item not there yet. */
  const nodePath = (
    document: Document.Parsed,
    path: readonly string[],
  ): { list?: readonly string[]; keys: (string | number)[] } => {
    const list = listOf(path);
    if (!list) return { keys: [...path] };
    const seq = document.getIn([...list], true);
    if (seq !== undefined && seq !== null && !isSeq(seq)) throw unsafeShape(file, `${list.join('.')} is not a list`);
    const index = isSeq(seq) ? seq.items.findIndex((item) => isMap(item) && item.get('name') === path.at(-1)) : -1;
    return { list, keys: [...list, index] };
  };

  const render = (document: Document.Parsed, path: readonly string[], intended: unknown): string => {
    let next = document.toString({ lineWidth: 0 });
    if (eol === '\r\n') next = next.replace(/\r?\n/g, '\r\n');
    if (text.trim() !== '' && !/\r?\n$/.test(text)) next = next.replace(/\r?\n$/, '');
    let after: unknown;
    try {
      after = model(parseYaml(next, file), file, namedLists);
    } catch {
      throw unsafeShape(file, 'the edited text would not parse');
    }
    checkEdit(file, before, after, path, intended);
    return next;
  };

  return {
    format: 'yaml',
    text,
    get: (path) => valueAt(before, path),
    set(path, value) {
      if (sameValue(valueAt(before, path), value)) return text;
      const document = parseYaml(text, file);
      const { list, keys } = nodePath(document, path);
      guardCollections(document, file, keys.slice(0, -1));
      const node = document.createNode(value);
      if (list && keys.at(-1) === -1) {
        if (document.getIn([...list]) === undefined || document.getIn([...list]) === null)
          document.setIn([...list], document.createNode([]));
        document.addIn([...list], node);
      } else if (document.contents === null) {
        document.contents = document.createNode({}) as unknown as typeof document.contents;
        document.setIn(keys, node);
      } else {
        document.setIn(keys, node);
      }
      return render(document, path, value);
    },
    remove(path) {
      if (valueAt(before, path) === undefined) return text;
      const document = parseYaml(text, file);
      const { keys } = nodePath(document, path);
      guardCollections(document, file, keys.slice(0, -1));
      document.deleteIn(keys);
      return render(document, path, undefined);
    },
  };
}
