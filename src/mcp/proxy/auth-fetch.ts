/**
 * The fetch the proxy gives the MCP SDK's Streamable HTTP client transport
 * (its `fetch` option): every request (POST of a message, GET of the event
 * stream, DELETE at the end) gets fresh credentials; a 401 gets new ones and
 * is sent again, once. The transport object and so its Mcp-Session-Id stay the
 * same across refreshes: the service validates a refreshed token again and
 * keeps the session (service docs, 5.2 rule 5).
 *
 * The SDK sends each message body as a string, so a request can be repeated.
 */
import type { CredentialSource, Headers as AuthHeaders } from './credentials.js';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface AuthFetchOptions {
  credentials: CredentialSource;
  log: (message: string) => void;
  /** The underlying fetch (default: Node's). */
  fetch?: FetchLike;
}

export function authFetch(options: AuthFetchOptions): FetchLike {
  const send = options.fetch ?? ((url, init) => fetch(url, init));
  const withHeaders = (init: RequestInit | undefined, auth: AuthHeaders): RequestInit => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(auth)) headers.set(name, value);
    return { ...init, headers };
  };
  return async (url, init) => {
    const first = await options.credentials.headers();
    const response = await send(url, withHeaders(init, first));
    if (response.status !== 401) return response;
    await response.body?.cancel().catch(() => undefined);
    options.log(`${init?.method ?? 'GET'} answered 401: getting new credentials and sending it again`);
    return send(url, withHeaders(init, await options.credentials.refresh(first)));
  };
}
