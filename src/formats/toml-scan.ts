// A small lexer, so `  [ "x" ],` in a multi-line array is no header; a mistake here is refused by checkEdit.

export interface TomlHeader {
  lineStart: number;
  lineEnd: number;
  path: string[];
  arrayTable: boolean;
}

interface LexState {
  multiline: '"""' | "'''" | null;
  depth: number;
}

export function parseDottedKey(source: string): string[] | undefined {
  const parts: string[] = [];
  let rest = source.trim();
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if ((match = /^[A-Za-z0-9_-]+/.exec(rest))) {
      parts.push(match[0]);
    } else if ((match = /^"((?:[^"\\\n]|\\.)*)"/.exec(rest))) {
      try {
        parts.push(JSON.parse(`"${match[1]}"`) as string);
      } catch {
        return undefined;
      }
    } else if ((match = /^'([^'\n]*)'/.exec(rest))) {
      parts.push(match[1] ?? '');
    } else {
      return undefined;
    }
    rest = rest.slice(match[0].length).trimStart();
    if (rest.length === 0) break;
    if (!rest.startsWith('.')) return undefined;
    rest = rest.slice(1).trimStart();
    if (rest.length === 0) return undefined;
  }
  return parts.length > 0 ? parts : undefined;
}

function parseHeader(line: string): { path: string[]; arrayTable: boolean } | undefined {
  const match = /^\s*(\[\[?)(.*?)(\]\]?)\s*(#.*)?$/.exec(line.replace(/\r$/, ''));
  if (!match) return undefined;
  const arrayTable = match[1] === '[[';
  if (arrayTable !== (match[3] === ']]')) return undefined;
  const path = parseDottedKey(match[2] ?? '');
  return path ? { path, arrayTable } : undefined;
}

function lexLine(line: string, state: LexState): void {
  let i = 0;
  while (i < line.length) {
    if (state.multiline) {
      const close = line.indexOf(state.multiline, i);
      if (close < 0) return;
      i = close + 3;
      // A closing delimiter may be followed by up to two more quotes that belong to the string.
      while (line[i] === state.multiline[0]) i += 1;
      state.multiline = null;
      continue;
    }
    const char = line[i];
    if (char === '#') return;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      state.multiline = line.slice(i, i + 3) as '"""' | "'''";
      i += 3;
      continue;
    }
    if (char === '"') {
      i += 1;
      while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
      i += 1;
      continue;
    }
    if (char === "'") {
      const close = line.indexOf("'", i + 1);
      i = close < 0 ? line.length : close + 1;
      continue;
    }
    if (char === '[' || char === '{') state.depth += 1;
    if (char === ']' || char === '}') state.depth = Math.max(0, state.depth - 1);
    i += 1;
  }
}

export function scanTomlHeaders(text: string): TomlHeader[] {
  const headers: TomlHeader[] = [];
  const state: LexState = { multiline: null, depth: 0 };
  let offset = 0;
  while (offset < text.length) {
    const newline = text.indexOf('\n', offset);
    const lineEnd = newline < 0 ? text.length : newline + 1;
    const line = text.slice(offset, newline < 0 ? text.length : newline);
    const header = state.multiline === null && state.depth === 0 ? parseHeader(line) : undefined;
    if (header) headers.push({ lineStart: offset, lineEnd, ...header });
    else lexLine(line, state);
    offset = lineEnd;
  }
  return headers;
}

export function isBlankOrComment(line: string): boolean {
  return /^\s*(#[^\n]*)?$/.test(line);
}
