// Only the byte ranges of our own tables are replaced; the rest is never re-serialized, so it stays byte-identical.
import { parse, stringify, TomlError } from 'smol-toml';
import {
  checkEdit,
  detectEol,
  nestUnder,
  parseFailure,
  positionAt,
  unsafeShape,
  valueAt,
  type ConfigDocument,
} from './config-document.js';
import { isBlankOrComment, scanTomlHeaders, type TomlHeader } from './toml-scan.js';

interface Range {
  start: number;
  end: number;
}

function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.split('\n')[0]?.replace(/^Invalid TOML document:\s*/, '') ?? 'invalid TOML';
      throw parseFailure(file, { line: error.line, column: error.column }, reason);
    }
    throw parseFailure(file, positionAt(text, 0), String(error));
  }
}

const startsWith = (path: readonly string[], prefix: readonly string[]): boolean =>
  path.length >= prefix.length && prefix.every((key, index) => path[index] === key);

/** Trailing blank and comment lines are left out: a comment just above the next header belongs to that header. */
function tableRanges(text: string, headers: TomlHeader[], prefix: readonly string[]): Range[] {
  const ranges: Range[] = [];
  headers.forEach((header, index) => {
    if (!startsWith(header.path, prefix)) return;
    const blockEnd = headers[index + 1]?.lineStart ?? text.length;
    let end = header.lineEnd;
    let offset = header.lineEnd;
    while (offset < blockEnd) {
      const newline = text.indexOf('\n', offset);
      const lineEnd = newline < 0 || newline + 1 > blockEnd ? blockEnd : newline + 1;
      if (!isBlankOrComment(text.slice(offset, lineEnd).replace(/\r?\n$/, ''))) end = lineEnd;
      offset = lineEnd;
    }
    // Our own tables separated only by blank lines or comments form one range.
    const previous = ranges.at(-1);
    const gap = previous ? text.slice(previous.end, header.lineStart) : undefined;
    if (previous && gap?.split('\n').every(isBlankOrComment)) previous.end = end;
    else ranges.push({ start: header.lineStart, end });
  });
  return ranges;
}

/** So no double gap is left behind. */
function extendOverBlankLines(text: string, range: Range): Range {
  let end = range.end;
  for (;;) {
    const match = /^[ \t]*\r?\n/.exec(text.slice(end));
    if (!match) break;
    end += match[0].length;
  }
  if (end === text.length && /^[ \t]*$/.test(text.slice(end))) {
    // At the end of the file, also drop the blank separator line we put before an appended table.
    let start = range.start;
    while (start > 0) {
      const match = /\r?\n[ \t]*\r?\n$/.exec(text.slice(0, start));
      if (!match) break;
      start -= match[0].length - (match[0].startsWith('\r') ? 2 : 1);
    }
    return { start, end: text.length };
  }
  return { start: range.start, end };
}

function renderTables(path: readonly string[], value: unknown, eol: string): string {
  const rendered = stringify(nestUnder(path, value) as Record<string, unknown>).replace(/\n+$/, '\n');
  return eol === '\n' ? rendered : rendered.replace(/\n/g, eol);
}

function splice(text: string, edits: { range: Range; replacement: string }[]): string {
  let result = text;
  for (const { range, replacement } of [...edits].sort((a, b) => b.range.start - a.range.start)) {
    result = result.slice(0, range.start) + replacement + result.slice(range.end);
  }
  return result;
}

function inlineDefinition(file: string, path: readonly string[]): Error {
  return unsafeShape(
    file,
    `${path.join('.')} is written as an inline table or dotted keys, not as its own [${path.join('.')}] table`,
    `svcctl edits only [${path.join('.')}] tables; rewrite that entry as a table by hand, then run the command again`,
  );
}

export function openTomlDocument(text: string, file: string): ConfigDocument {
  const parsed = parseToml(text, file);
  const headers = scanTomlHeaders(text);
  const eol = detectEol(text);

  const reparse = (next: string): unknown => {
    try {
      return parse(next);
    } catch {
      throw unsafeShape(file, 'the edited text would not parse');
    }
  };

  return {
    format: 'toml',
    text,
    get: (path) => valueAt(parsed, path),
    set(path, value) {
      const block = renderTables(path, value, eol);
      const ranges = tableRanges(text, headers, path);
      if (ranges.length === 0 && valueAt(parsed, path) !== undefined) throw inlineDefinition(file, path);
      let next: string;
      if (ranges.length === 0) {
        if (text.trim() === '') next = block;
        else {
          const withNewline = /\r?\n$/.test(text) ? text : text + eol;
          const separator = /\r?\n[ \t]*\r?\n$/.test(withNewline) ? '' : eol;
          next = withNewline + separator + block;
        }
      } else {
        const [first, ...others] = ranges as [Range, ...Range[]];
        next = splice(text, [
          { range: first, replacement: block },
          ...others.map((range) => ({ range: extendOverBlankLines(text, range), replacement: '' })),
        ]);
      }
      checkEdit(file, parsed, reparse(next), path, value);
      return next;
    },
    remove(path) {
      if (valueAt(parsed, path) === undefined) return text;
      const ranges = tableRanges(text, headers, path);
      if (ranges.length === 0) throw inlineDefinition(file, path);
      const next = splice(
        text,
        ranges.map((range) => ({ range: extendOverBlankLines(text, range), replacement: '' })),
      );
      checkEdit(file, parsed, reparse(next), path, undefined);
      return next;
    },
  };
}
