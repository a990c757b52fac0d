/**
 * What the sandbox knows of each MCP user, by email: how many requests came
 * in which protocol era, and when the last one did. This is the service's own
 * per-user state; in the 2026-07-28 revision there is no protocol session to
 * hang it on, so it is keyed by the authenticated user alone. Bounded: the
 * user seen longest ago is forgotten first.
 */
export type McpEra = '2025' | '2026';

export interface McpUserActivity {
  /** Lower-case email. */
  email: string;
  requests: Record<McpEra, number>;
  lastSeen: number;
}

const MAX_USERS = 1000;

export class McpUsers {
  private readonly byEmail = new Map<string, McpUserActivity>();

  constructor(private readonly now: () => number = Date.now) {}

  record(email: string, era: McpEra): McpUserActivity {
    const activity = this.byEmail.get(email) ?? { email, requests: { '2025': 0, '2026': 0 }, lastSeen: 0 };
    this.byEmail.delete(email);
    if (this.byEmail.size >= MAX_USERS) this.byEmail.delete(this.byEmail.keys().next().value as string);
    activity.requests[era]++;
    activity.lastSeen = this.now();
    this.byEmail.set(email, activity);
    return activity;
  }

  get(email: string): McpUserActivity | undefined {
    const found = this.byEmail.get(email);
    return found && { ...found, requests: { ...found.requests } };
  }
}
