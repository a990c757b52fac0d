/**
 * A fetch with the attempt deadline: each request (its headers and its whole
 * body) is aborted once `timeoutMs` has passed, whatever signal the caller
 * gave. For code that talks HTTP through fetch (the MCP SDK's client in
 * `mcp doctor`, later `mcp proxy`); svcctl's own requests use the transports.
 */
import { DeadlineExceeded } from './attempt-deadline.js';

export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export function deadlineFetch(timeoutMs: number, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await base(input, { ...init, signal });
    } catch (error) {
      if (deadline.aborted) throw new DeadlineExceeded('headers', timeoutMs);
      throw error;
    }
  };
}
