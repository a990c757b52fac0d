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

/** What a person fixes at the error's position, in words (jsonc-parser names only its codes). */
export function describeJsonError(error: ParseError): string {
  const names: Record<string, string> = {
    CommaExpected: 'a comma is missing',
    ColonExpected: 'a colon is missing',
    PropertyNameExpected: 'a property name in double quotes is expected',
    ValueExpected: 'a value is expected',
    CloseBraceExpected: "a closing '}' is missing",
    CloseBracketExpected: "a closing ']' is missing",
    EndOfFileExpected: 'text after the end of the JSON value',
    InvalidSymbol: 'unexpected text (strings take double quotes)',
    InvalidNumberFormat: 'a number is malformed',
    UnexpectedEndOfString: 'a string is not closed',
    UnexpectedEndOfComment: 'a comment is not closed',
    InvalidCommentToken: 'a comment, which JSON does not allow',
    InvalidEscapeCharacter: 'an escape in a string is malformed',
    InvalidUnicode: 'a \\u escape is malformed',
    InvalidCharacter: 'a control character (a line feed, a tab) inside a string',
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
  if (!text.startsWith(BOM)) return new JsoncBody(text, file);
  const body = new JsoncBody(text.slice(BOM.length), file);
  return {
    format: 'json',
    text,
    get: (path) => body.get(path),
    set: (path, value) => BOM + body.set(path, value),
    remove: (path) => BOM + body.remove(path),
    upsertById: (arrayKey, item) => BOM + body.upsertById(arrayKey, item),
    duplicateKeys: (path) => body.duplicateKeys(path),
  };
}

const memberName = (property: Node): unknown => property.children?.[0]?.value;

function holdsDuplicate(node: Node | undefined): boolean {
  if (node === undefined) return false;
  if (node.type === 'object') {
    const names = (node.children ?? []).map(memberName);
    if (new Set(names).size !== names.length) return true;
    return (node.children ?? []).some((property) => holdsDuplicate(property.children?.[1]));
  }
  return node.type === 'array' && (node.children ?? []).some(holdsDuplicate);
}

/** The text of one JSON object document, and the edits that keep everything else in it byte for byte. */
class JsoncBody implements JsoncDocument {
  readonly format = 'json';
  private readonly blank: boolean;
  private readonly root: Node | undefined;
  private readonly parsed: unknown = {};
  private readonly formatting: FormattingOptions;

  constructor(
    readonly text: string,
    private readonly file: string,
  ) {
    this.blank = text.trim() === '';
    if (!this.blank) {
      const errors: ParseError[] = [];
      this.root = parseTree(text, errors, PARSE_OPTIONS);
      const first = errors[0];
      if (first) throw parseFailure(file, positionAt(text, first.offset), describeJsonError(first));
      if (this.root?.type !== 'object') throw unsafeShape(file, 'the top level is not a JSON object');
      this.parsed = getNodeValue(this.root);
    }
    this.formatting = detectFormatting(text);
  }

  get(path: readonly string[]): unknown {
    if (!this.root) return undefined;
    const node = findNodeAtLocation(this.root, [...path]);
    return node ? getNodeValue(node) : undefined;
  }

  set(path: readonly string[], value: unknown): string {
    if (this.blank) return `${JSON.stringify(nestUnder(path, value), null, 2)}\n`;
    this.checkParents(path);
    return this.checked(applyTextEdit(this.text, this.setEdit(path, value)), path, value);
  }

  remove(path: readonly string[]): string {
    if (!this.root || this.get(path) === undefined) return this.text;
    this.checkParents(path);
    const property = findNodeAtLocation(this.root, [...path])?.parent;
    const container = property?.parent;
    if (property?.type !== 'property' || !container) return this.text;
    return this.checked(applyTextEdits(this.text, removeMember(this.text, property, container)), path, undefined);
  }

  duplicateKeys(path: readonly string[]): string[] {
    const found = new Set<string>();
    let node = this.root;
    for (const key of path) {
      if (node?.type !== 'object') return [...found];
      const members = (node.children ?? []).filter((property) => memberName(property) === key);
      if (members.length > 1) found.add(key);
      node = members[0]?.children?.[1];
    }
    if (node?.type !== 'object') return [...found];
    const seen = new Set<unknown>();
    for (const property of node.children ?? []) {
      const name = memberName(property);
      if (typeof name === 'string' && (seen.has(name) || holdsDuplicate(property.children?.[1]))) found.add(name);
      seen.add(name);
    }
    return [...found];
  }

  upsertById(arrayKey: string, item: { id: string }): string {
    const list = this.get([arrayKey]);
    if (list === undefined) return this.set([arrayKey], [item]);
    if (!Array.isArray(list) || !this.root) throw unsafeShape(this.file, `"${arrayKey}" is not a JSON array`);
    const index = list.findIndex((entry: unknown) => (entry as { id?: unknown } | null)?.id === item.id);
    if (index >= 0 && sameValue(list[index], item)) return this.text;
    const arrayNode = findNodeAtLocation(this.root, [arrayKey]) as Node;
    const itemNode = index >= 0 ? arrayNode.children?.[index] : undefined;
    const edit = itemNode
      ? replaceValue(this.text, itemNode, item, this.formatting)
      : appendMember(this.text, arrayNode, undefined, item, this.formatting);
    const expected = index >= 0 ? list.map((entry, at) => (at === index ? item : entry)) : [...list, item];
    return this.checked(applyTextEdit(this.text, edit), [arrayKey], expected);
  }

  /** Every parent must be an object (or absent) for an in-place edit to mean what we intend. */
  private checkParents(path: readonly string[]): void {
    for (let length = 1; length < path.length; length += 1) {
      const parent = this.get(path.slice(0, length));
      if (parent !== undefined && (parent === null || typeof parent !== 'object' || Array.isArray(parent))) {
        throw unsafeShape(this.file, `"${path.slice(0, length).join('.')}" is not a JSON object`);
      }
    }
  }

  /** The edited text, once it parses to exactly the old value with only `path` changed. */
  private checked(next: string, path: readonly string[], value: unknown): string {
    const errors: ParseError[] = [];
    const tree = parseTree(next, errors, PARSE_OPTIONS);
    if (errors.length > 0 || !tree) throw unsafeShape(this.file, 'the edited text would not parse');
    checkEdit(this.file, this.parsed, getNodeValue(tree), path, value);
    return next;
  }

  private setEdit(path: readonly string[], value: unknown) {
    const tree = this.root as Node;
    const existing = findNodeAtLocation(tree, [...path]);
    if (existing) return replaceValue(this.text, existing, value, this.formatting);
    for (let depth = path.length - 1; depth >= 0; depth -= 1) {
      const container = depth === 0 ? tree : findNodeAtLocation(tree, path.slice(0, depth));
      if (container?.type === 'object') {
        return appendMember(
          this.text,
          container,
          path[depth],
          nestUnder(path.slice(depth + 1), value),
          this.formatting,
        );
      }
    }
    throw unsafeShape(this.file, 'the top level is not a JSON object');
  }
}
