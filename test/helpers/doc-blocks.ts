/**
 * The shell blocks of the documentation (README.md and every docs/*.md page),
 * and how the docs test runs one: whole, as a reader pasting it into a fresh
 * terminal would, with the built `svcctl` on PATH, in an empty temp folder
 * that is also HOME.
 *
 * A block is one fenced block whose info string is sh, bash, shell or zsh.
 * The line before its fence (blank lines between allowed) may hold a marker:
 *   <!-- docs-test: skip (why) -->   not run: placeholders, a real client, the clone itself…
 *   <!-- docs-test: sandbox -->      run in a shell where `svcctl dev` already runs in the background
 *                                    and SERVICE_* point at it (what the README's first block sets up)
 * An unmarked block runs in a clean shell: no SERVICE_* variable, no sandbox.
 *
 * "As pasted": every line runs, also after one fails (no `set -e`); a failing
 * command (pipelines included: pipefail) fails the block, and so does a
 * sandbox request log line in its output (a background sandbox writing into
 * the reader's terminal) or a process it leaves running. Blocks that run
 * hold no `#` comment: zsh, macOS's shell, does not read `#` as a comment on
 * the command line unless `interactivecomments` is set, so `cmd # note`
 * passes `#` and `note` to cmd. They hold no `!` inside double quotes either
 * (history expansion in an interactive bash or zsh).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type BlockMode = { kind: 'run' } | { kind: 'sandbox' } | { kind: 'skip'; reason: string };

export interface DocBlock {
  /** File path relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  mode: BlockMode;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'zsh']);
const MARKER = /^<!--\s*docs-test:\s*(.*?)\s*-->$/;

/** README.md and docs/*.md, found anew on every run (a new page is picked up without a list to update). */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

function parseMarker(text: string, where: string): BlockMode {
  if (text === 'sandbox') return { kind: 'sandbox' };
  const skip = /^skip\s*\((.+)\)$/.exec(text);
  if (skip) return { kind: 'skip', reason: skip[1]!.trim() };
  throw new Error(`${where}: unknown docs-test marker '${text}' (use 'skip (why)' or 'sandbox')`);
}

/** The shell blocks of one Markdown text, with their markers. */
export function shellBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith(`${indent}${fence}`)) end++;
    if (SHELL_LANGS.has(lang!)) {
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const marker = before >= 0 ? MARKER.exec(lines[before]!.trim()) : null;
      const where = `${file}:${i + 1}`;
      blocks.push({
        file,
        line: i + 1,
        lang: lang!,
        code: lines
          .slice(i + 1, end)
          .map((line) => line.slice(indent!.length))
          .join('\n'),
        mode: marker ? parseMarker(marker[1]!, where) : { kind: 'run' },
      });
    }
    i = end;
  }
  return blocks;
}

export function allShellBlocks(root: string): DocBlock[] {
  return documentationFiles(root).flatMap((file) => shellBlocks(file, readFileSync(join(root, file), 'utf8')));
}

/**
 * What would break a block pasted into an interactive shell: `#` comments
 * (zsh without interactivecomments) and `!` in double quotes (history
 * expansion). A light scan of the shell's quoting, enough for documentation.
 */
export function pasteProblems(code: string): string[] {
  const problems: string[] = [];
  let quote: '"' | "'" | null = null;
  code.split('\n').forEach((line, index) => {
    for (let at = 0; at < line.length; at++) {
      const c = line[at]!;
      if (quote === "'") {
        if (c === "'") quote = null;
        continue;
      }
      if (c === '\\') {
        at++;
        continue;
      }
      if (quote === '"') {
        if (c === '"') quote = null;
        else if (c === '!')
          problems.push(`line ${index + 1}: '!' inside double quotes is history expansion in an interactive shell`);
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (at === 0 || /\s/.test(line[at - 1]!))) {
        problems.push(
          `line ${index + 1}: a '#' comment (zsh reads it as words unless interactivecomments is set): put the note in the text around the block`,
        );
        break;
      }
    }
  });
  return problems;
}
