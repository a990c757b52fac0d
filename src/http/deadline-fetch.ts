// For code that talks through fetch (the MCP SDK's client); svcctl's own requests use the transports.
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
