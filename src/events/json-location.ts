// Where JSON text stops being JSON, as a person finds it in an editor: line and column, and what was expected there.
// V8's own message gives a byte position at best, often only a snippet; jsonc-parser reports the offset of every
// error, so it is loaded for this one error path and never on a send that parses.
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

const EXPECTED: Record<string, string> = {
  InvalidSymbol: 'this is not a JSON value (strings take double quotes)',
  InvalidNumberFormat: 'a number is malformed',
  PropertyNameExpected: 'a member name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "a ':' was expected",
  CommaExpected: "a ',' was expected",
  CloseBraceExpected: "a '}' was expected",
  CloseBracketExpected: "a ']' was expected",
  EndOfFileExpected: 'more text after the JSON value',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'JSON has no comments',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'a \\u escape is malformed',
  InvalidEscapeCharacter: 'an escape in a string is malformed',
  InvalidCharacter: 'a control character (a line feed, a tab) inside a string must be escaped',
};

/** `line L, column C: what was expected`, or undefined when jsonc-parser finds nothing wrong (V8's message stands). */
export function jsonErrorLocation(text: string): string | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - (before.lastIndexOf('\n') + 1) + 1;
  const expected = EXPECTED[printParseErrorCode(first.error)] ?? 'not JSON here';
  return `line ${line}, column ${column}: ${expected}`;
}
