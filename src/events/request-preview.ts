import { SIGNATURE_HEADER } from '../core/constants.js';
import { signBody } from './hmac.js';

function previewHeaders(body: Buffer, secret: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Authorization: 'Bearer ***' };
  if (secret !== undefined) headers[SIGNATURE_HEADER] = signBody(body, secret);
  headers['Content-Length'] = String(body.length);
  return headers;
}

export function renderDryRun(url: string, body: Buffer, secret: string | undefined): Buffer {
  const headers = Object.entries(previewHeaders(body, secret)).map(([name, value]) => `${name}: ${value}`);
  const lines = [`POST ${url}`, ...headers, '', ''];
  return Buffer.concat([Buffer.from(lines.join('\n'), 'utf8'), body, Buffer.from('\n')]);
}

export function renderDryRunJson(url: string, body: Buffer, secret: string | undefined): string {
  const request = { method: 'POST', url, headers: previewHeaders(body, secret), body: body.toString('utf8') };
  return `${JSON.stringify(request)}\n`;
}

export type TokenReference = { env: string } | { file: string };

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

/** The token is read through a header file (`-H @<(printf ...)`) so it never appears in curl's argv. */
export function renderCurl(url: string, body: Buffer, secret: string | undefined, token: TokenReference): string {
  const tokenValue = 'env' in token ? `"$${token.env}"` : `"$(cat ${shellQuote(token.file)})"`;
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
