// Each edit is checked by parsing the result again: if anything besides the target changed, it is refused, not written.
import { CliError, ExitCode } from '../core/errors.js';

export type ConfigFormat = 'json' | 'toml' | 'yaml';

export interface ConfigDocument {
  readonly format: ConfigFormat;
  readonly text: string;
  get(path: readonly string[]): unknown;
  /** Replaced whole, never merged. */
  set(path: readonly string[], value: unknown): string;
  remove(path: readonly string[]): string;
  /** Keys that appear more than once along `path` or among the members of the object at `path` (a member also when its
   * value holds a key twice). Readers differ on which one counts (the first, the last), so such a file means different
   * things to each: only JSON allows it; TOML and YAML refuse it when they parse. */
  duplicateKeys?(path: readonly string[]): string[];
}

export interface TextPosition {
  line: number;
  column: number;
}

export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1) ?? '').replace(/\r$/, '').length + 1 };
}

export interface FilePosition extends TextPosition {
  file: string;
}

/** The message says nothing about writing: read-only commands report it too. */
export class ConfigParseError extends CliError {
  readonly position: FilePosition;

  constructor(position: FilePosition, reason: string) {
    super(
      ExitCode.UnsafeConfig,
      `${position.file}:${position.line}:${position.column}: the file does not parse (${reason})`,
      {
        hint: 'fix the file by hand (the position above points at the problem), then run the command again',
      },
    );
    this.position = position;
  }
}

export function parseFailure(file: string, position: TextPosition, reason: string): ConfigParseError {
  return new ConfigParseError({ file, line: position.line, column: position.column }, reason);
}

export function unsafeShape(file: string, reason: string, hint?: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `${file}: ${reason}`, {
    hint: hint ?? 'edit the file by hand, or write another file with --config',
  });
}

/** Object key order does not matter, array order does. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameValue(item, other[index]));
  }
  if (a instanceof Date || b instanceof Date) return String(a) === String(b);
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameValue(left[key], right[key]));
}

export function valueAt(root: unknown, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function withoutPath(root: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || root === null || typeof root !== 'object' || Array.isArray(root)) return root;
  const [key, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(root, key)) return root;
  const copy: Record<string, unknown> = { ...(root as Record<string, unknown>) };
  if (rest.length === 0) delete copy[key];
  else copy[key] = withoutPath(copy[key], rest);
  return copy;
}

export function nestUnder(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** Empty parent objects left by a removal are not counted as a change. */
export function checkEdit(
  file: string,
  before: unknown,
  after: unknown,
  path: readonly string[],
  intended: unknown,
): void {
  const targetOk =
    intended === undefined ? valueAt(after, path) === undefined : sameValue(valueAt(after, path), intended);
  const restOk = sameValue(pruneEmpty(withoutPath(after, path), path), pruneEmpty(withoutPath(before, path), path));
  if (!targetOk || !restOk) {
    throw unsafeShape(
      file,
      `svcctl could not change only the entry ${path.join('.')} in this file (it is written in a form svcctl does not edit, such as an inline table or dotted keys)`,
    );
  }
}

function pruneEmpty(root: unknown, path: readonly string[]): unknown {
  for (let length = path.length - 1; length >= 1; length -= 1) {
    const parentPath = path.slice(0, length);
    const parent = valueAt(root, parentPath);
    if (parent !== null && typeof parent === 'object' && !Array.isArray(parent) && Object.keys(parent).length === 0) {
      root = withoutPath(root, parentPath);
    }
  }
  return root;
}

export function detectEol(text: string): '\n' | '\r\n' {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return crlf > lf ? '\r\n' : '\n';
}
