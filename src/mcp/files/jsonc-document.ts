// Trailing commas and comments are accepted: several clients allow them, and refusing a file they read helps no one.
import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import {
  checkEdit,
  detectEol,
  nestUnder,
  parseFailure,
  positionAt,
  sameValue,
  unsafeShape,
  type ConfigDocument,
} from './config-document.js';
import { appendMember, applyTextEdit, applyTextEdits, removeMember, replaceValue } from './jsonc-edits.js';

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

export function detectFormatting(text: string): FormattingOptions {
  const eol = detectEol(text);
  const indented = text.split('\n').find((line) => /^[ \t]+["}\]/]/.test(line));
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  const spaces = indented ? (/^ +/.exec(indented)?.[0].length ?? 2) : 2;
  return { insertSpaces: true, tabSize: Math.min(Math.max(spaces, 1), 8), eol };
}

function describeError(error: ParseError): string {
  const names: Record<string, string> = {
    CommaExpected: 'a comma is missing',
    ColonExpected: 'a colon is missing',
    PropertyNameExpected: 'a property name is expected',
    ValueExpected: 'a value is expected',
    CloseBraceExpected: "a closing '}' is missing",
    CloseBracketExpected: "a closing ']' is missing",
    EndOfFileExpected: 'text after the end of the JSON value',
    InvalidSymbol: 'unexpected text',
    UnexpectedEndOfString: 'a string is not closed',
    UnexpectedEndOfComment: 'a comment is not closed',
  };
  const code = printParseErrorCode(error.error);
  return names[code] ?? code;
}

export interface JsoncDocument extends ConfigDocument {
  upsertById(arrayKey: string, item: { id: string }): string;
}

const BOM = '\uFEFF';

/** A UTF-8 BOM (some Windows editors write one) is not JSON: the text after it is edited and the mark put back. */
export function openJsoncDocument(text: string, file: string): JsoncDocument {
  if (!text.startsWith(BOM)) return openJsoncBody(text, file);
  const body = openJsoncBody(text.slice(BOM.length), file);
  return {
    format: 'json',
    text,
    get: (path) => body.get(path),
    set: (path, value) => BOM + body.set(path, value),
    remove: (path) => BOM + body.remove(path),
    upsertById: (arrayKey, item) => BOM + body.upsertById(arrayKey, item),
  };
}

function openJsoncBody(text: string, file: string): JsoncDocument {
  const blank = text.trim() === '';
  let root: Node | undefined;
  let parsed: unknown = {};
  if (!blank) {
    const errors: ParseError[] = [];
    root = parseTree(text, errors, PARSE_OPTIONS);
    const first = errors[0];
    if (first) throw parseFailure(file, positionAt(text, first.offset), describeError(first));
    if (root?.type !== 'object') {
      throw unsafeShape(file, 'the top level is not a JSON object');
    }
    parsed = getNodeValue(root);
  }
  const formatting = detectFormatting(text);

  const get = (path: readonly string[]): unknown => {
    if (!root) return undefined;
    const node = findNodeAtLocation(root, [...path]);
    return node ? getNodeValue(node) : undefined;
  };

  /** Every parent must be an object (or absent) for an in-place edit to mean what we intend. */
  const checkParents = (path: readonly string[]): void => {
    for (let length = 1; length < path.length; length += 1) {
      const parent = get(path.slice(0, length));
      if (parent !== undefined && (parent === null || typeof parent !== 'object' || Array.isArray(parent))) {
        throw unsafeShape(file, `"${path.slice(0, length).join('.')}" is not a JSON object`);
      }
    }
  };

  const reparse = (next: string): unknown => {
    const errors: ParseError[] = [];
    const tree = parseTree(next, errors, PARSE_OPTIONS);
    if (errors.length > 0 || !tree) throw unsafeShape(file, 'the edited text would not parse');
    return getNodeValue(tree);
  };

  const setEdit = (path: readonly string[], value: unknown) => {
    const tree = root as Node;
    const existing = findNodeAtLocation(tree, [...path]);
    if (existing) return replaceValue(text, existing, value, formatting);
    for (let depth = path.length - 1; depth >= 0; depth -= 1) {
      const container = depth === 0 ? tree : findNodeAtLocation(tree, path.slice(0, depth));
      if (container?.type === 'object') {
        return appendMember(text, container, path[depth], nestUnder(path.slice(depth + 1), value), formatting);
      }
    }
    throw unsafeShape(file, 'the top level is not a JSON object');
  };

  return {
    format: 'json',
    text,
    get,
    set(path, value) {
      if (blank) return `${JSON.stringify(nestUnder(path, value), null, 2)}\n`;
      checkParents(path);
      const next = applyTextEdit(text, setEdit(path, value));
      checkEdit(file, parsed, reparse(next), path, value);
      return next;
    },
    remove(path) {
      if (!root || get(path) === undefined) return text;
      checkParents(path);
      const valueNode = findNodeAtLocation(root, [...path]);
      const property = valueNode?.parent;
      const container = property?.parent;
      if (property?.type !== 'property' || !container) return text;
      const next = applyTextEdits(text, removeMember(text, property, container));
      checkEdit(file, parsed, reparse(next), path, undefined);
      return next;
    },
    upsertById(arrayKey, item) {
      const list = get([arrayKey]);
      if (list === undefined) return this.set([arrayKey], [item]);
      if (!Array.isArray(list) || !root) throw unsafeShape(file, `"${arrayKey}" is not a JSON array`);
      const index = list.findIndex((entry: unknown) => (entry as { id?: unknown } | null)?.id === item.id);
      if (index >= 0 && sameValue(list[index], item)) return text;
      const arrayNode = findNodeAtLocation(root, [arrayKey]) as Node;
      const itemNode = index >= 0 ? arrayNode.children?.[index] : undefined;
      const edit = itemNode
        ? replaceValue(text, itemNode, item, formatting)
        : appendMember(text, arrayNode, undefined, item, formatting);
      const next = applyTextEdit(text, edit);
      const expected = index >= 0 ? list.map((entry, at) => (at === index ? item : entry)) : [...list, item];
      checkEdit(file, parsed, reparse(next), [arrayKey], expected);
      return next;
    },
  };
}
