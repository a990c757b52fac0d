// Edited as text, so comments, unknown keys and order stay byte for byte; each edit is checked by parsing the result,
// and a layout svcctl does not edit (an inline `deployments = { … }`) stops with exit 7.
import { parse } from 'smol-toml';
import { CliError, ExitCode } from '../core/errors.js';
import { detectEol, sameValue, withoutPath } from '../formats/config-document.js';
import { openTomlDocument } from '../formats/toml-document.js';
import { isBlankOrComment, scanTomlHeaders } from '../formats/toml-scan.js';
import type { DeploymentsFile } from './deployments-shape.js';

const HINT =
  'edit it by hand (each deployment as its own [deployments."NAME"] table, default = "NAME" before the first table), then run the command again';

function refused(path: string, reason: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `${path}: ${reason}; nothing was written`, { hint: HINT });
}

function tableEdit(path: string, edit: () => string): string {
  try {
    return edit();
  } catch (error) {
    if (error instanceof CliError && error.exitCode === ExitCode.UnsafeConfig)
      throw refused(path, error.message.replace(`${path}: `, ''));
    throw error;
  }
}

const DEFAULT_LINE =
  /^([ \t]*(?:default|"default"|'default')[ \t]*=[ \t]*)("(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*')([ \t]*(?:#[^\r\n]*)?)(\r?\n|$)/m;

/** Where a new top-level key goes: after the last top-level key, else after the file's opening comment block. */
function insertionPoint(region: string): number {
  const lines = region.split(/(?<=\n)/);
  let offset = 0;
  let afterKey = -1;
  let afterLeadingComments = 0;
  let leading = true;
  for (const line of lines) {
    const content = line.replace(/\r?\n$/, '');
    offset += line.length;
    if (!isBlankOrComment(content)) {
      afterKey = offset;
      leading = false;
    } else if (leading && content.trim() === '') {
      afterLeadingComments = offset;
      leading = false;
    }
  }
  return afterKey >= 0 ? afterKey : afterLeadingComments;
}

function editDefault(text: string, path: string, value: string | undefined): string {
  const rootEnd = scanTomlHeaders(text)[0]?.lineStart ?? text.length;
  const region = text.slice(0, rootEnd);
  const match = DEFAULT_LINE.exec(region);
  const before = parse(text) as Record<string, unknown>;
  let next: string;
  if (match) {
    const [whole, prefix, , suffix, eol] = match as unknown as [string, string, string, string, string];
    const replacement = value === undefined ? '' : `${prefix}${JSON.stringify(value)}${suffix}${eol}`;
    next = text.slice(0, match.index) + replacement + text.slice(match.index + whole.length);
  } else if (before.default !== undefined) {
    throw refused(path, 'the default = … line is written in a form svcctl does not edit');
  } else if (value === undefined) {
    return text;
  } else {
    const eol = detectEol(text);
    const at = insertionPoint(region);
    const lead = at > 0 && !/\n$/.test(text.slice(0, at)) ? eol : '';
    const gap = at === rootEnd && rootEnd < text.length ? eol : '';
    next = `${text.slice(0, at)}${lead}default = ${JSON.stringify(value)}${eol}${gap}${text.slice(at)}`;
  }
  let after: Record<string, unknown>;
  try {
    after = parse(next) as Record<string, unknown>;
  } catch {
    throw refused(path, 'svcctl could not change the default = … line alone');
  }
  if (after.default !== value || !sameValue(withoutPath(after, ['default']), withoutPath(before, ['default']))) {
    throw refused(path, 'svcctl could not change the default = … line alone');
  }
  return next;
}

export function editDeploymentsText(
  text: string,
  path: string,
  before: DeploymentsFile,
  after: DeploymentsFile,
): string {
  const urlOf = (file: DeploymentsFile): Map<string, string> =>
    new Map(file.deployments.map((d) => [d.name, d.baseUrl]));
  const [was, now] = [urlOf(before), urlOf(after)];
  let next = text;
  for (const [name, url] of was) {
    if (now.get(name) !== url) next = tableEdit(path, () => openTomlDocument(next, path).remove(['deployments', name]));
  }
  for (const [name, url] of now) {
    if (was.get(name) !== url)
      next = tableEdit(path, () => openTomlDocument(next, path).set(['deployments', name], { base_url: url }));
  }
  if (after.default !== before.default) next = editDefault(next, path, after.default);
  return next;
}
