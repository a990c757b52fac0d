// Where JSON text stops being JSON, as a person finds it in an editor: line and column, and what is wrong there.
// V8's own message gives a byte position at best, often only a snippet; jsonc-parser reports the offset of every
// error, so it is loaded for this one error path and never on a send that parses.
import { type ParseError, parse } from 'jsonc-parser';
import { positionAt } from '../formats/config-document.js';
import { describeJsonError } from '../formats/jsonc-document.js';

/** `line L, column C: what is wrong`, or undefined when jsonc-parser finds nothing wrong (V8's message stands). */
export function jsonErrorLocation(text: string): string | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  const { line, column } = positionAt(text, first.offset);
  return `line ${line}, column ${column}: ${describeJsonError(first)}`;
}
