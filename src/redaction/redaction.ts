// The forms hidden, the limits for short secrets and the cost of each look: docs/security.md ("Secrets").
import {
  type DumpKind,
  dumpPatterns,
  dumpStartNeeds,
  MIN_BASE64_PIECE,
  MIN_HIDDEN_LENGTH,
  MIN_SECRET_LENGTH,
  bare,
  secretPattern,
  secretPatterns,
  utf16Readings,
  writtenForms,
} from './secret-forms.js';
import { compileAlternatives, joinedView, LINE_BREAK, maskMatches, normalisedView, type View } from './text-view.js';

export interface Redactor {
  redact(text: string): string;
  redactValue(value: unknown): unknown;
}

export { MIN_HEX_BYTES, MIN_HIDDEN_LENGTH, MIN_SECRET_LENGTH } from './secret-forms.js';

const MASK = '***';

/** How many texts a redactor looks at for dump starts with plain strings before it compiles their expression. */
const PLAIN_LOOKS = 16;

const plusAsSpace = (text: string): string => text.replace(/\+/g, ' ');

interface Look {
  forms: boolean;
  /** The kinds of dump whose first bytes the text holds. */
  dumps: DumpKind[];
}

function dumpsOf(secrets: string[], start: boolean): Partial<Record<DumpKind, string[]>> {
  const byKind: Partial<Record<DumpKind, string[]>> = {};
  for (const secret of secrets)
    for (const [kind, patterns] of Object.entries(dumpPatterns(secret, start) ?? {}))
      (byKind[kind as DumpKind] ??= []).push(...patterns);
  return byKind;
}

function mayHoldTest(secrets: string[], readings: string[]): (text: string) => Look {
  const all = [...new Set([...secrets.flatMap(writtenForms), ...readings, ...readings.flatMap(bare)])];
  // A form that holds another needs no look of its own (a whole base64 holds its first piece).
  const written = all.filter((form) => !all.some((other) => other !== form && form.includes(other)));
  // A form without a line break in it is in the joined text whenever it is in the text.
  const lineBreak = new RegExp(LINE_BREAK.source); // without LINE_BREAK's g flag, so test() keeps no lastIndex
  const broken = written.filter((form) => lineBreak.test(form));
  const spaced = secrets
    .filter((secret) => [...secret].length >= MIN_SECRET_LENGTH && secret.includes(' '))
    .map(plusAsSpace);
  // A named HTML reference (&amp;) is looked for only when a secret has a character that has one.
  const named = secrets.some((secret) => /[&<>"']/.test(secret));
  const needs = secrets.flatMap(dumpStartNeeds);
  let starts: Partial<Record<DumpKind, string[]>> | undefined;
  const startExpressions: Partial<Record<DumpKind, RegExp>> = {};
  const startOf = (kind: DumpKind): RegExp =>
    (startExpressions[kind] ??= new RegExp((starts ??= dumpsOf(secrets, true))[kind]!.join('|')));
  // The first texts are looked at with plain strings (a run that writes a line or two compiles nothing); a run
  // that writes more pays once for one expression of every start, cheaper per text than the strings.
  let plainLooks = PLAIN_LOOKS;
  let anyStart: RegExp | undefined;
  const kindsIn = (text: string): DumpKind[] => {
    if (plainLooks > 0) {
      plainLooks -= 1;
      const lower = /[A-F]/.test(text) ? text.toLowerCase() : text;
      const met = needs.filter(
        (need) =>
          need.lowerCase.every((part) => lower.includes(part)) && need.exact.every((part) => text.includes(part)),
      );
      return [...new Set(met.map((need) => need.kind))];
    }
    starts ??= dumpsOf(secrets, true);
    anyStart ??= new RegExp(Object.values(starts).flat().join('|'));
    return anyStart.test(text) ? (Object.keys(starts) as DumpKind[]) : [];
  };
  const dumpsIn = (text: string): DumpKind[] =>
    needs.length === 0 ? [] : kindsIn(text).filter((kind) => startOf(kind).test(text));
  const escaped = (text: string): boolean =>
    text.includes('\\') ||
    text.includes('%') ||
    text.includes('&#') ||
    text.includes('\0') ||
    (named && text.includes('&'));
  const holdsForm = (text: string, forms: string[]): boolean => {
    if (forms.some((form) => text.includes(form))) return true;
    if (spaced.length === 0) return false;
    const spacedText = plusAsSpace(text);
    return spaced.some((secret) => spacedText.includes(secret));
  };
  return (text) => {
    const lines = text.includes('\n') || text.includes('\r') || text.includes('\\');
    const joined = lines ? text.replace(LINE_BREAK, '') : text;
    const forms = escaped(text) || holdsForm(joined, written) || (lines && holdsForm(text, broken));
    return { forms, dumps: dumpsIn(joined) };
  };
}

const URL_PASSWORD = /([A-Za-z][A-Za-z0-9+.-]*:(?:\\*\/){2}[^\s/\\?#@:"']*:)([^\s/\\?#"']+)@/g;

export function hideUrlPasswords(text: string): string {
  if (!text.includes('@') || !text.includes(':')) return text;
  return text.replace(URL_PASSWORD, (all, head: string, password: string) =>
    password === MASK ? all : `${head}${MASK}@`,
  );
}

/** Returns the value itself when nothing changed: no copy, no new JSON text. */
function redactValueWith(redact: (text: string) => string): (value: unknown) => unknown {
  const redactValue = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) {
      const items = value.map(redactValue);
      return items.some((item, index) => item !== value[index]) ? items : value;
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      const shown = entries.map(([key, item]) => [redact(key), redactValue(item)] as const);
      return shown.some(([key, item], index) => key !== entries[index]![0] || item !== entries[index]![1])
        ? Object.fromEntries(shown)
        : value;
    }
    return value;
  };
  return redactValue;
}

export const URL_PASSWORDS_ONLY: Redactor = {
  redact: hideUrlPasswords,
  redactValue: redactValueWith(hideUrlPasswords),
};

export function createRedactor(secrets: Iterable<string | null | undefined>): Redactor {
  const hidden = (secret: string | null | undefined): secret is string =>
    typeof secret === 'string' && [...secret].length >= MIN_HIDDEN_LENGTH;
  const given = [...secrets].filter(hidden);
  // The normalised view holds a secret as it shows the text (decoded, folded), so it is looked for so too.
  const unique = [...new Set([...given, ...given.map((secret) => normalisedView(secret)?.text).filter(hidden)])];
  if (unique.length === 0) return URL_PASSWORDS_ONLY;
  // UTF-16 in the view: what is left of a secret that is not ASCII, looked for as written only.
  const readings = [...new Set(unique.flatMap(utf16Readings))].filter(
    (reading) => [...reading].length >= MIN_SECRET_LENGTH && !unique.includes(reading),
  );
  // Longer secrets first, so that a secret containing another is hidden whole.
  unique.sort((a, b) => b.length - a.length);
  // No form of a secret is shorter than this, so shorter text needs no look.
  const shortest = Math.min(
    ...unique.map((secret) => ([...secret].length < MIN_SECRET_LENGTH ? secret.length : MIN_BASE64_PIECE)),
  );
  const mayHold = mayHoldTest(unique, readings);
  // Compiled on first use (~25-70 ms); the dumps apart, as their separators make them slow and few texts need them.
  let patterns: RegExp[] | undefined;
  const dumpExpressions: Partial<Record<DumpKind, RegExp[]>> = {};
  // Built when a text first holds a dump's first bytes: most runs write no dump at all.
  let dumpForms: Partial<Record<DumpKind, string[]>> | undefined;
  // `viewOf` again after the forms are hidden: the dumps are looked for in the text as it is then.
  const mask = (text: string, viewOf: (text: string) => View | undefined, first?: Look): string => {
    let view = viewOf(text);
    if (!view) return text;
    const look = first ?? mayHold(view.text);
    let shown = text;
    if (look.forms) {
      patterns ??= compileAlternatives([...unique.flatMap(secretPatterns), ...readings.map(secretPattern)], 'gu');
      shown = maskMatches(shown, view, patterns);
      if (shown !== text) view = viewOf(shown);
    }
    if (look.dumps.length > 0 && view) {
      const expressions = look.dumps.flatMap(
        (kind) => (dumpExpressions[kind] ??= compileAlternatives((dumpForms ??= dumpsOf(unique, false))[kind]!, 'g')),
      );
      shown = maskMatches(shown, view, expressions);
    }
    return shown;
  };
  const normalised = (text: string): View => normalisedView(text) ?? { text };
  const hideSecrets = (text: string): string => {
    if (text.length < shortest) return text;
    const view = normalised(text);
    const look = mayHold(view.text);
    if (!look.forms && look.dumps.length === 0) return text;
    const shown = mask(text, (now) => (now === text ? view : normalised(now)), look);
    // Then the text without its line breaks, for a form broken over lines: the real ones, then their escapes too.
    const joined = mask(shown, (now) => joinedView(normalised(now), false));
    return joined.includes('\\') ? mask(joined, (now) => joinedView(normalised(now), true)) : joined;
  };
  const redact = (text: string): string => hideUrlPasswords(hideSecrets(text));
  return { redact, redactValue: redactValueWith(redact) };
}
