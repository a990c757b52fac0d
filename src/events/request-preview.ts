/**
 * What `--dry-run` and `--print-curl` print instead of sending: the request
 * with secrets as ***, or an equivalent curl command that reads the secrets
 * from environment variables and sends the identical bytes.
 */
import { SIGNATURE_HEADER } from '../constants.js';
import { envName } from '../settings.js';
import { signBody } from './hmac.js';

/** The request as text: method and URL, headers (secrets as ***), a blank line, the body bytes. */
export function renderDryRun(url: string, body: Buffer, secret: string | undefined): Buffer {
  const lines = [`POST ${url}`, 'Content-Type: application/json', 'Authorization: Bearer ***'];
  if (secret !== undefined) lines.push(`${SIGNATURE_HEADER}: ${signBody(body, secret)}`);
  lines.push(`Content-Length: ${body.length}`, '', '');
  return Buffer.concat([Buffer.from(lines.join('\n'), 'utf8'), body, Buffer.from('\n')]);
}

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

/** $'...' with every byte outside printable ASCII escaped: for bodies that are not valid UTF-8. */
function quoteBytes(body: Buffer): string {
  let escaped = '';
  for (const byte of body) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c;
    escaped += printable ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `$'${escaped}'`;
}

/**
 * A bash command that sends the same bytes. The token is read from
 * SERVICE_INGEST_TOKEN through a here-string header file, so it never appears
 * in the process list; the signature is printed as is (it is not a secret and
 * is valid only for these exact bytes).
 */
export function renderCurl(url: string, body: Buffer, secret: string | undefined): string {
  const tokenVar = envName('INGEST_TOKEN');
  const text = body.toString('utf8');
  const data = Buffer.from(text, 'utf8').equals(body) ? shellQuote(text) : quoteBytes(body);
  const lines = [
    `printf '%s' ${data} |`,
    `  curl --silent --show-error --fail-with-body -X POST ${shellQuote(url)} \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -H @<(printf 'Authorization: Bearer %s\\n' "$${tokenVar}") \\`,
  ];
  if (secret !== undefined) lines.push(`    -H '${SIGNATURE_HEADER}: ${signBody(body, secret)}' \\`);
  lines.push('    --data-binary @-');
  return `${lines.join('\n')}\n`;
}
