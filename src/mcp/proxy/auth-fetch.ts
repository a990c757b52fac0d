// A 401 is retried once with new credentials on the same transport, so its Mcp-Session-Id survives: the service
// validates a refreshed token again and keeps the session (docs/mcp.md, "svcctl mcp proxy").
// The SDK sends each message body as a string, so a request can be sent twice.
import type { CredentialSource, Headers as AuthHeaders } from './credentials.js';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface AuthFetchOptions {
  credentials: CredentialSource;
  log: (message: string) => void;
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
