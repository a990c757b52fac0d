// A view of a text in which the redactor looks for secrets, with the place in the text of each of its characters: so
// that a match in the view hides the span of the text it came from, and the rest of the text is shown as it was.

export interface View {
  text: string;
  /** View character i stands for the text from start(i) up to end(i) (none: the same place, one character). */
  start?: (index: number) => number;
  end?: (index: number) => number;
}

const MASK = '***';

// Terminal escape sequences that colour output puts inside text (grep --color, a diff highlighter, tput sgr0):
// SGR and erase-line, a charset choice, OSC (a link); real, or written out (\u001b in JSON, \x1b, \033, \e, ^[ as
// `cat -v` shows it). Only these: a wider grammar would swallow the first character of what follows a stray ESC [.
const CSI = '\\[[0-9;:]*[mK]';
const TERMINAL_SEQUENCE = `\\x1b(?:${CSI}|\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)|[()][0-9A-Za-z])|(?:\\\\+(?:u001[bB]|x1[bB]|033|e)|\\^\\[)${CSI}|\\x9b[0-9;:]*[mK]`;
// NUL (UTF-16 read as UTF-8 has one beside each ASCII character), real or a JSON escape: dropped.
const NUL = '\\x00|\\\\+u0000';
// \xNN (C, Python's bytes): an ASCII byte alone, a run of other bytes together, decoded as UTF-8.
const BYTE_ESCAPES = '(?:\\\\+x[89a-fA-F][0-9a-fA-F])+|\\\\+x[0-7][0-9a-fA-F]';
// HTML character references (&#105; &#x69; and the named ones a secret's characters have).
const HTML_REFERENCE = '&#[0-9]{1,7};|&#[xX][0-9a-fA-F]{1,6};|&(?:amp|lt|gt|quot|apos);';
// JSON escapes of other non-ASCII characters (a surrogate pair as one): decoded only when folding changes them.
const ESCAPED = '\\\\+u[dD][89abAB][0-9a-fA-F]{2}\\\\+u[dD][c-fC-F][0-9a-fA-F]{2}|\\\\+u(?!00[0-7])[0-9a-fA-F]{4}';
// Built on first use, as the rest below: a Unicode expression costs ~0.1 ms to construct, and most runs write only
// ASCII text that MAY_CHANGE_CHARACTER lets through.
let pieces: RegExp | undefined;
const piecesPattern = (): RegExp =>
  (pieces ??= new RegExp(
    `(${TERMINAL_SEQUENCE}|${NUL})|(${BYTE_ESCAPES})|(${HTML_REFERENCE})|(${ESCAPED})|\\P{M}\\p{M}+|[^\\x00-\\x7f]`,
    'gu',
  ));
// What every piece the view changes starts with (NUL, ESC, &, \, ^, not ASCII): one scan of a character class.
const MAY_CHANGE_CHARACTER = /[^\x01-\x1a\x1c-\x25\x27-\x5b\x5d\x5f-\x7f]/;
const MAY_CHANGE =
  /[^\x01-\x1a\x1c-\x7f]|\\+(?:u(?!00[0-7])|u0000|u001[bB]|x[0-9a-fA-F]{2}|033\[|e\[)|\^\[\[|&(?:#|amp;|lt;|gt;|quot;|apos;)/;
let decoded: RegExp | undefined;
const decodedPattern = (): RegExp =>
  (decoded ??= new RegExp(`${TERMINAL_SEQUENCE}|${NUL}|${BYTE_ESCAPES}|${HTML_REFERENCE}|${ESCAPED}`, 'u'));
let formats: RegExp | undefined;
const formatCharacters = (): RegExp => (formats ??= /\p{Cf}/gu);
let droppedRun: RegExp | undefined;
const droppedPattern = (): RegExp => (droppedRun ??= new RegExp(`^(?:${TERMINAL_SEQUENCE}|${NUL})+$`, 'u'));

/** Zero-width and other format characters (soft hyphen, bidi marks, BOM) out; compatibility forms (full-width) folded. */
export const fold = (text: string): string => text.normalize('NFKC').replace(formatCharacters(), '');

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeReference(reference: string): string {
  const named = NAMED[reference.slice(1, -1)];
  if (named) return named;
  const point =
    reference[2] === 'x' || reference[2] === 'X' ? parseInt(reference.slice(3), 16) : parseInt(reference.slice(2), 10);
  return point <= 0x10ffff ? String.fromCodePoint(point) : reference;
}

const decodeUnits = (escaped: string): string =>
  String.fromCharCode(...[...escaped.matchAll(/u([0-9a-fA-F]{4})/g)].map((unit) => parseInt(unit[1]!, 16)));

const decodeBytes = (escaped: string): string =>
  Buffer.from(escaped.replace(/\\+x/g, ''), 'hex').toString('utf8').replace(/\0/g, '');

/** What a piece of the text shows in the view, or undefined when the view shows it as it is. */
function shownAs(piece: string, dropped?: string, bytes?: string, reference?: string, escaped?: string) {
  if (dropped !== undefined) return '';
  if (bytes !== undefined) return fold(decodeBytes(bytes));
  if (reference !== undefined) return fold(decodeReference(reference));
  const decoded = escaped !== undefined ? decodeUnits(escaped) : piece;
  const folded = fold(decoded);
  return folded === decoded ? undefined : folded;
}

/** The text without terminal escape sequences, NULs and format characters, its \xNN escapes and HTML references
 * decoded, its compatibility characters folded (NFKC: full-width letters, ligatures; also when written as JSON
 * escapes). Undefined when that changes nothing, which the first test tells cheaply for ASCII text without escapes. */
export function normalisedView(text: string): View | undefined {
  if (!MAY_CHANGE_CHARACTER.test(text) || !MAY_CHANGE.test(text)) return undefined;
  const format = formatCharacters();
  format.lastIndex = 0;
  if (!decodedPattern().test(text) && !format.test(text) && text.normalize('NFKC') === text) return undefined;
  const from: number[] = [];
  const to: number[] = [];
  let view = '';
  let last = 0;
  let changed = false;
  const keep = (end: number): void => {
    for (let index = last; index < end; index++) {
      from.push(index);
      to.push(index + 1);
    }
    view += text.slice(last, end);
  };
  for (const match of text.matchAll(piecesPattern())) {
    const [piece, dropped, bytes, reference, escaped] = match;
    const shown = shownAs(piece, dropped, bytes, reference, escaped);
    if (shown === undefined) continue;
    changed = true;
    keep(match.index);
    // Each character of what the piece became stands for the whole piece.
    for (let index = 0; index < shown.length; index++) {
      from.push(match.index);
      to.push(match.index + piece.length);
    }
    view += shown;
    last = match.index + piece.length;
  }
  if (!changed) return undefined;
  keep(text.length);
  return { text: view, start: (index) => from[index]!, end: (index) => to[index]! };
}

export const LINE_BREAK = /\r\n?|\n|(?:\\+r)?\\+n|\\+r/g;
const REAL_LINE_BREAK = /\r\n?|\n/g;

/** The view without its line breaks, so that a form broken over lines is found; `escaped`: their JSON escapes too
 * (which a secret may hold as text: `\n` in a password, so the real ones alone are a view of their own). */
export function joinedView(view: View, escaped: boolean): View | undefined {
  const breaks = [...view.text.matchAll(escaped ? LINE_BREAK : REAL_LINE_BREAK)];
  if (breaks.length === 0) return undefined;
  // Piece k of the joined text starts at joinedAt[k] and at viewAt[k] in the view.
  const joinedAt: number[] = [];
  const viewAt: number[] = [];
  let text = '';
  let from = 0;
  for (const found of [...breaks, undefined]) {
    const to = found ? found.index : view.text.length;
    joinedAt.push(text.length);
    viewAt.push(from);
    text += view.text.slice(from, to);
    if (found) from = found.index + found[0].length;
  }
  const inView = (index: number): number => {
    let low = 0;
    let high = joinedAt.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (joinedAt[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return viewAt[low]! + index - joinedAt[low]!;
  };
  return {
    text,
    start: (index) => (view.start ? view.start(inView(index)) : inView(index)),
    end: (index) => (view.end ? view.end(inView(index)) : inView(index) + 1),
  };
}

const HEX_MATCH = /^[0-9a-fA-F]{2}[ :-]{0,2}[0-9a-fA-F]{2}[ :-]{0,2}[0-9a-fA-F]{2}(?:.*[0-9a-fA-F]{2})?$/s;
// The text column of an xxd or hexdump -C line shows the secret's printable bytes, which no plain form matches whole.
const DUMP_LINE_REST = /^((?:[ :-]{1,2}[0-9a-fA-F]{2,4})*)( {2}\|[^\r\n]*\|| {2,}[^\r\n]*)(?=\r?\n|$)/;

/** Where the expressions match in the view, in order; overlapping matches (of different expressions) as one. */
function matchedSpans(view: View, patterns: RegExp[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const pattern of patterns)
    for (const match of view.text.matchAll(pattern))
      if (match[0] !== '') spans.push([match.index, match.index + match[0].length]);
  if (patterns.length === 1) return spans;
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const previous = merged.at(-1);
    if (previous && span[0] < previous[1]) previous[1] = Math.max(previous[1], span[1]);
    else merged.push(span);
  }
  return merged;
}

/** Each match in the view hides its span of `text`, and the text column of a dump line it ends in. */
export function maskMatches(text: string, view: View, patterns: RegExp[]): string {
  const start = view.start ?? ((index: number): number => index);
  const end = view.end ?? ((index: number): number => index + 1);
  // What the view dropped right before or after a match (a colour code, UTF-16's NUL) is hidden with it.
  const dropped = (from: number, to: number): boolean => to > from && droppedPattern().test(text.slice(from, to));
  let shown = '';
  let last = 0;
  for (const [first, after] of matchedSpans(view, patterns)) {
    let at = start(first);
    const before = first > 0 ? end(first - 1) : 0;
    if (dropped(before, at)) at = before;
    // A view character folded from a longer piece may start inside what is hidden already.
    at = Math.max(at, last);
    shown += `${text.slice(last, at)}${MASK}`;
    last = Math.max(end(after - 1), at);
    const next = after < view.text.length ? start(after) : text.length;
    if (dropped(last, next)) last = next;
    const rest = HEX_MATCH.test(view.text.slice(first, after)) ? DUMP_LINE_REST.exec(text.slice(last)) : null;
    if (rest) {
      shown += `${rest[1]}  ${rest[2]!.trimStart().startsWith('|') ? `|${MASK}|` : MASK}`;
      last += rest[0].length;
    }
  }
  return last === 0 ? text : shown + text.slice(last);
}

// V8 compiles a larger expression to slow bytecode (20 KB of source, kRegExpTooLargeToOptimize): keep each below.
const MAX_SOURCE = 16_000;

/** The alternatives as few expressions as their size allows, in their order. */
export function compileAlternatives(sources: string[], flags: string): RegExp[] {
  const groups: string[][] = [[]];
  let size = 0;
  for (const source of sources) {
    if (size + source.length > MAX_SOURCE && groups.at(-1)!.length > 0) {
      groups.push([]);
      size = 0;
    }
    groups.at(-1)!.push(source);
    size += source.length + 1;
  }
  return groups.map((group) => new RegExp(group.join('|'), flags));
}
