// The service's own per-user state: 2026-07-28 has no protocol session to hang it on, so it is keyed by the
// authenticated user alone. Bounded: the user seen longest ago is forgotten first.
export type McpEra = '2025' | '2026';

export interface McpUserActivity {
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
