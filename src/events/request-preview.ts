/**
 * What `--dry-run` and `--print-curl` print instead of sending: the request
 * with secrets as ***, or an equivalent curl command that reads the token
 * from where svcctl read it (a variable or a file) and sends the identical bytes.
 */
import { SIGNATURE_HEADER } from '../core/constants.js';
import { signBody } from './hmac.js';

/** The request headers, the token as ***. */
function previewHeaders(body: Buffer, secret: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Authorization: 'Bearer ***' };
  if (secret !== undefined) headers[SIGNATURE_HEADER] = signBody(body, secret);
  headers['Content-Length'] = String(body.length);
  return headers;
}

/** The request as text: method and URL, headers (secrets as ***), a blank line, the body bytes. */
export function renderDryRun(url: string, body: Buffer, secret: string | undefined): Buffer {
  const headers = Object.entries(previewHeaders(body, secret)).map(([name, value]) => `${name}: ${value}`);
  const lines = [`POST ${url}`, ...headers, '', ''];
  return Buffer.concat([Buffer.from(lines.join('\n'), 'utf8'), body, Buffer.from('\n')]);
}

/** --json --dry-run: the request as one JSON line (the body is valid UTF-8: it was decoded strictly). */
export function renderDryRunJson(url: string, body: Buffer, secret: string | undefined): string {
  const request = { method: 'POST', url, headers: previewHeaders(body, secret), body: body.toString('utf8') };
  return `${JSON.stringify(request)}\n`;
}

/** Where the printed curl command reads the token: the variable or the file svcctl read it from. */
export type TokenReference = { env: string } | { file: string };

/** Quotes text for bash: '...' when printable, $'...' with escapes when it holds control characters. */
export function shellQuote(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x1f\x7f]/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  const escaped = text.replace(/[\\'\x00-\x1f\x7f]/g, (ch) => {
    if (ch === '\\') return '\\\\';
    if (ch === "'") return "\\'";
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return `$'${escaped}'`;
}

/**
 * A bash command that sends the same bytes. The token is read from the
 * variable or file it came from, through a header file (`-H @<(printf ...)`),
 * so it never appears in the command or in curl's argv; `$(cat file)` drops
 * trailing newlines like svcctl drops one. The signature is printed as is (it
 * is not a secret and is valid only for these exact bytes).
 */
export function renderCurl(url: string, body: Buffer, secret: string | undefined, token: TokenReference): string {
  const tokenValue = 'env' in token ? `"$${token.env}"` : `"$(cat ${shellQuote(token.file)})"`;
  // Bodies are valid UTF-8 (checked when they were read), so the text is the bytes.
  const data = shellQuote(body.toString('utf8'));
  const lines = [
    `printf '%s' ${data} |`,
    `  curl --silent --show-error --fail-with-body -X POST ${shellQuote(url)} \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -H @<(printf 'Authorization: Bearer %s\\n' ${tokenValue}) \\`,
  ];
  if (secret !== undefined) lines.push(`    -H '${SIGNATURE_HEADER}: ${signBody(body, secret)}' \\`);
  lines.push('    --data-binary @-');
  return `${lines.join('\n')}\n`;
}
