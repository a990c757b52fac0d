// A value only referring to a variable (${VAR}, ${env:VAR}, {env:VAR}, a Codex variable name) names a secret without
// holding it, so it stays readable; a value that merely starts with `$` is not a reference.
import { createTwoFilesPatch } from 'diff';
import { createRedactor, type Redactor } from '../redaction/redaction.js';
import { holdsSecretValue, masked, maskText, maskWord } from '../redaction/mask-entry.js';
import { secretArgValues } from '../redaction/secret-names.js';
import { scanTomlHeaders } from './toml-scan.js';

// Anywhere in a line, so pairs of a one-line object or a TOML inline table are found too.
const KEY_VALUE = /(["']?)([A-Za-z0-9_.-]+)\1(\s*[:=]\s*)(["'])((?:\\.|(?!\4)[^\\])*)\4/g;

const STRING = /"((?:\\.|[^"\\\n])*)"|'([^'\n]*)'/g;

export function positionalSecrets(text: string): string[] {
  const runs: string[][] = [[]];
  for (const match of text.matchAll(STRING)) {
    const isKey = /^\s*[:=]/.test(text.slice(match.index + match[0].length, match.index + match[0].length + 20));
    if (isKey) {
      runs.push([]);
      continue;
    }
    let value = match[2] ?? match[1]!;
    try {
      if (match[1] !== undefined) value = JSON.parse(`"${match[1]}"`) as string;
    } catch {
      // a TOML escape JSON does not know: keep the text as written
    }
    runs[runs.length - 1]!.push(value);
  }
  return runs.flatMap((run) => secretArgValues(run));
}

function tomlTables(text: string): Array<string | undefined> {
  const lines = text.split('\n');
  const tables: Array<string | undefined> = [undefined];
  const headers = scanTomlHeaders(text);
  let next = 0;
  let offset = 0;
  let current: string | undefined;
  for (const line of lines) {
    const header = headers[next];
    if (header?.lineStart === offset) {
      current = header.path.join('.');
      next += 1;
    }
    tables.push(current);
    offset += line.length + 1;
  }
  return tables;
}

export function redactLine(line: string, redactor: Redactor, table?: string): string {
  // Each string of another server as `mcp get` shows it (a header or variable given as one argument, a URL's query
  // secrets and password), then the URLs outside quotes (YAML's plain scalars).
  const strings = redactor.redact(line).replace(STRING, (all: string, double?: string, single?: string) => {
    const text = double ?? single ?? '';
    const shown = maskWord(text);
    return shown === text ? all : `${all[0]}${shown}${all[0]}`;
  });
  const result = maskText(strings);
  // The table's last part is the parent key of the pair, as in maskEntry: env_http_headers names variables.
  const parent = table?.split('.').at(-1);
  return result.replace(
    KEY_VALUE,
    (pair: string, keyQuote: string, key: string, separator: string, quote: string, value: string) =>
      holdsSecretValue(value, key, parent)
        ? `${keyQuote}${key}${keyQuote}${separator}${quote}${masked(value)}${quote}`
        : pair,
  );
}

export function unifiedDiff(file: string, before: string, after: string, secrets: readonly string[] = []): string {
  const patch = createTwoFilesPatch(
    file,
    file,
    before,
    after,
    before === '' ? '(new file)' : 'current',
    'after svcctl',
    {
      context: 3,
    },
  );
  const lines = patch
    .split('\n')
    .filter((line, index) => !(index < 2 && (line.startsWith('Index:') || /^=+$/.test(line))));
  const redactor = createRedactor([...secrets, ...positionalSecrets(before), ...positionalSecrets(after)]);
  const toml = /\.toml$/i.test(file);
  const oldTables = toml ? tomlTables(before) : [];
  const newTables = toml ? tomlTables(after) : [];
  let oldLine = 0;
  let newLine = 0;
  return lines
    .map((line, index) => {
      if (index < 2) return line;
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (hunk) {
        oldLine = Number(hunk[1]);
        newLine = Number(hunk[2]);
        return line;
      }
      if (!/^[+\- ]/.test(line)) return line;
      const table = line[0] === '+' ? newTables[newLine] : oldTables[oldLine];
      if (line[0] !== '+') oldLine += 1;
      if (line[0] !== '-') newLine += 1;
      return redactLine(line, redactor, table);
    })
    .join('\n');
}

export function holdsSecrets(
  file: string,
  text: string,
  known: Pick<Redactor, 'redact'>,
  secrets: readonly string[] = [],
): boolean {
  const redactor = createRedactor([...secrets, ...positionalSecrets(text)]);
  const tables = /\.toml$/i.test(file) ? tomlTables(text) : [];
  return text.split('\n').some((line, index) => redactLine(known.redact(line), redactor, tables[index + 1]) !== line);
}
