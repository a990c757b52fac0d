/**
 * Unified diffs of config files, for --dry-run and for refused conflicts.
 * Secrets never reach the terminal: the literal values we are about to write
 * are replaced by ***, and so is the value of any line whose key names a
 * password, token, secret or Authorization header (another server's
 * credentials may sit in the context lines).
 */
import { createTwoFilesPatch } from 'diff';

const SECRET_KEY = /(password|passwd|token|secret|authorization|api[_-]?key|credential)/i;
// A JSON or TOML key/value line whose key looks secret: "KEY": "value" or KEY = "value".
const SECRET_LINE = /^([+\- ]\s*["']?([A-Za-z0-9_.-]+)["']?\s*[:=]\s*)(["'])(.*)\3(\s*,?\s*)$/;

const HEADER_ARG = /(["'])((?:Authorization|[A-Za-z-]*(?:Password|Token|Secret)[A-Za-z-]*)\s*:\s*)([^"']+)\1/gi;

/** ${VAR}, ${env:VAR}, ${input:id}, $VAR, {env:VAR}, <PLACEHOLDER>, ***: names of secrets, not secrets. */
function isReference(value: string): boolean {
  return /\$\{|\{env:|^\$[A-Z_]|^<.*>$|^\*\*\*$/.test(value);
}

export function redactLine(line: string, secrets: readonly string[]): string {
  let result = line;
  for (const secret of secrets) {
    if (secret.length > 0) result = result.split(secret).join('***');
  }
  // A header given as an argument (mcp-remote --header "Name: value") of another server.
  result = result.replace(HEADER_ARG, (_all, quote: string, name: string, value: string) =>
    isReference(value) ? _all : `${quote}${name}***${quote}`,
  );
  const match = SECRET_LINE.exec(result);
  if (match && SECRET_KEY.test(match[2] ?? '') && match[4] !== '' && !isReference(match[4] ?? '')) {
    // Keep references such as ${env:X} or ${input:x} readable: they are not secrets.
    return `${match[1]}${match[3]}***${match[3]}${match[5]}`;
  }
  return result;
}

export function unifiedDiff(file: string, before: string, after: string, secrets: readonly string[] = []): string {
  const patch = createTwoFilesPatch(file, file, before, after, before === '' ? '(new file)' : 'current', 'after svcctl', {
    context: 3,
  });
  // Drop the "Index:" / "=====" preamble that createTwoFilesPatch adds: a plain unified diff is easier to read.
  const lines = patch.split('\n').filter((line, index) => !(index < 2 && (line.startsWith('Index:') || /^=+$/.test(line))));
  return lines.map((line) => (/^[+\- ]/.test(line) && !/^(---|\+\+\+) /.test(line) ? redactLine(line, secrets) : line)).join('\n');
}
