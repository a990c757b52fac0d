// Not jsonc-parser's `modify`: it re-formats the neighbours of an insertion and moves comments on removal.
import type { FormattingOptions, Node } from 'jsonc-parser';

export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

export function applyTextEdit(text: string, edit: TextEdit): string {
  return text.slice(0, edit.offset) + edit.content + text.slice(edit.offset + edit.length);
}

function unitOf(fmt: FormattingOptions): string {
  return fmt.insertSpaces === false ? '\t' : ' '.repeat(fmt.tabSize ?? 2);
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentOfLine(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStartOf(text, offset)))?.[0] ?? '';
}

function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStartOf(text, offset), offset));
}

export function skipTrivia(text: string, offset: number): number {
  let i = offset;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
    if (text.startsWith('//', i)) {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
    } else return i;
  }
}

function restOfLineIsTrivia(text: string, offset: number): number | undefined {
  const newline = text.indexOf('\n', offset);
  const end = newline < 0 ? text.length : newline;
  const rest = text.slice(offset, end).replace(/\r$/, '');
  return /^[ \t]*(\/\/.*)?$/.test(rest) ? offset + rest.length : undefined;
}

export function renderValue(value: unknown, indent: string, fmt: FormattingOptions): string {
  return JSON.stringify(value, null, unitOf(fmt))
    .split('\n')
    .join(`${fmt.eol ?? '\n'}${indent}`);
}

const renderProperty = (key: string, value: unknown, indent: string, fmt: FormattingOptions): string =>
  `${JSON.stringify(key)}: ${renderValue(value, indent, fmt)}`;

export function replaceValue(text: string, node: Node, value: unknown, fmt: FormattingOptions): TextEdit {
  const anchor = node.parent?.type === 'property' ? node.parent.offset : node.offset;
  const multiline = text.slice(node.offset, node.offset + node.length).includes('\n') || startsLine(text, anchor);
  const content = multiline ? renderValue(value, indentOfLine(text, node.offset), fmt) : JSON.stringify(value);
  return { offset: node.offset, length: node.length, content };
}

export function appendMember(
  text: string,
  container: Node,
  key: string | undefined,
  value: unknown,
  fmt: FormattingOptions,
): TextEdit {
  const eol = fmt.eol ?? '\n';
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const members = container.children ?? [];
  const last = members.at(-1);
  const member = (indent: string): string =>
    key === undefined ? renderValue(value, indent, fmt) : renderProperty(key, value, indent, fmt);
  const oneLine = !text.slice(open, close + 1).includes('\n');

  if (!last) {
    const parentIndent = indentOfLine(text, open);
    const childIndent = parentIndent + unitOf(fmt);
    if (text.slice(open + 1, close).trim() === '') {
      return {
        offset: open + 1,
        length: close - open - 1,
        content: `${eol}${childIndent}${member(childIndent)}${eol}${parentIndent}`,
      };
    }
    // Only comments inside: put the member first, leave the comments after it.
    return { offset: open + 1, length: 0, content: `${eol}${childIndent}${member(childIndent)}` };
  }

  const lastEnd = last.offset + last.length;
  const afterLast = skipTrivia(text, lastEnd);
  const trailingComma = text[afterLast] === ',';
  if (oneLine || !startsLine(text, last.offset)) {
    const compact = key === undefined ? JSON.stringify(value) : `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return trailingComma
      ? { offset: afterLast + 1, length: 0, content: ` ${compact},` }
      : { offset: lastEnd, length: 0, content: `, ${compact}` };
  }
  const indent = indentOfLine(text, last.offset);
  if (trailingComma) {
    const lineEnd = restOfLineIsTrivia(text, afterLast + 1) ?? afterLast + 1;
    return { offset: lineEnd, length: 0, content: `${eol}${indent}${member(indent)},` };
  }
  // The comma goes right after the last value; the new member after that line's comment, if any.
  const lineEnd = restOfLineIsTrivia(text, lastEnd);
  if (lineEnd !== undefined && lineEnd > lastEnd) {
    const between = text.slice(lastEnd, lineEnd);
    return { offset: lastEnd, length: lineEnd - lastEnd, content: `,${between}${eol}${indent}${member(indent)}` };
  }
  return { offset: lastEnd, length: 0, content: `,${eol}${indent}${member(indent)}` };
}

/** When the last member had no trailing comma, the comma of the member before it goes too. */
export function removeMember(text: string, member: Node, container: Node): TextEdit[] {
  const members = container.children ?? [];
  const index = members.indexOf(member);
  const end = member.offset + member.length;
  const afterMember = skipTrivia(text, end);
  const hasComma = text[afterMember] === ',';
  let removeEnd = hasComma ? afterMember + 1 : end;
  let removeStart = member.offset;
  const edits: TextEdit[] = [];

  const lineEnd = restOfLineIsTrivia(text, removeEnd);
  if (startsLine(text, member.offset) && lineEnd !== undefined) {
    removeStart = lineStartOf(text, member.offset);
    removeEnd = text.startsWith('\r\n', lineEnd) ? lineEnd + 2 : text.startsWith('\n', lineEnd) ? lineEnd + 1 : lineEnd;
  } else if (hasComma) {
    removeEnd = skipWhitespace(text, removeEnd);
  }
  if (members.length === 1) {
    const open = container.offset + 1;
    const close = container.offset + container.length - 1;
    const rest = text.slice(open, removeStart) + text.slice(removeEnd, close);
    if (rest.trim() === '') return [{ offset: open, length: close - open, content: '' }];
  }
  const previous = index > 0 ? members[index - 1] : undefined;
  const isLast = index === members.length - 1;
  if (isLast && !hasComma && previous) {
    const previousEnd = previous.offset + previous.length;
    const comma = skipTrivia(text, previousEnd);
    if (text[comma] === ',') edits.push({ offset: comma, length: 1, content: '' });
    if (!startsLine(text, member.offset)) removeStart = comma + 1;
  }
  edits.push({ offset: removeStart, length: removeEnd - removeStart, content: '' });
  return edits;
}

function skipWhitespace(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i += 1;
  return i;
}

export function applyTextEdits(text: string, edits: TextEdit[]): string {
  return [...edits].sort((a, b) => b.offset - a.offset).reduce(applyTextEdit, text);
}
