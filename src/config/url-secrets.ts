/** The secrets a URL itself carries: the password of its userinfo and the values of query keys that name a secret
 * (`?api_key=…`, `&access_token=…`). svcctl refuses a user name or password in every URL it takes; a query is allowed
 * (some MCP servers are addressed that way), but a secret there makes the URL itself a literal secret wherever it is
 * written (docs/security.md, "URL passwords"). */
import { usageError } from '../core/errors.js';
import { isSecretQueryKey } from '../redaction/mask-entry.js';

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The secret values of `raw` (decoded), none when it does not parse. */
export function urlSecrets(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [];
  }
  const found: string[] = [];
  if (url.password !== '') found.push(decoded(url.password));
  for (const [key, value] of url.searchParams) if (value !== '' && isSecretQueryKey(key)) found.push(value);
  return found;
}

/** A user name alone is refused too: a client may ask for its password, or send it to a host that logs it. */
export function refuseUserinfo(url: URL, source: string): void {
  if (url.username === '' && url.password === '') return;
  throw usageError(
    `${source} must not contain a user name or password (user:password@): it would be written into MCP configs and logs`,
    'remove the user:password@ part: svcctl sends your credentials itself (SERVICE_EMAIL and SERVICE_PASSWORD, or svcctl login)',
  );
}
