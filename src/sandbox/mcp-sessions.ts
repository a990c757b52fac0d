// Bounded per user and in all: one more closes the one used longest ago (of that user, then of anyone), so a client
// that reconnects in a loop or abandons sessions cannot grow memory without end (docs/sandbox.md).
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';

export interface McpSession {
  id: string;
  /** Lower case. */
  email: string;
  transport: NodeStreamableHTTPServerTransport;
  lastUsed: number;
}

export interface SessionLimits {
  perUser: number;
  total: number;
  oneSessionPerUser: boolean;
}

export const DEFAULT_SESSIONS_PER_USER = 32;
export const DEFAULT_SESSIONS_TOTAL = 256;

export class SessionRegistry {
  /** The first is the one used longest ago (a Map keeps insertion order). */
  private readonly byId = new Map<string, McpSession>();
  private readonly countByEmail = new Map<string, number>();

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.byId.size;
  }

  countFor(email: string): number {
    return this.countByEmail.get(email) ?? 0;
  }

  /** Only when it belongs to `email`; marks it used. */
  use(id: string, email: string): McpSession | undefined {
    const session = this.byId.get(id);
    if (!session || session.email !== email) return undefined;
    this.byId.delete(id);
    session.lastUsed = Date.now();
    this.byId.set(id, session);
    return session;
  }

  evictionsFor(email: string): McpSession[] {
    const doomed = new Set<McpSession>();
    const userLimit = this.limits.oneSessionPerUser ? 1 : this.limits.perUser;
    let userCount = this.countFor(email);
    let total = this.byId.size;
    for (const session of this.byId.values()) {
      if (userCount < userLimit) break;
      if (session.email !== email) continue;
      doomed.add(session);
      userCount--;
      total--;
    }
    for (const session of this.byId.values()) {
      if (total < this.limits.total) break;
      if (doomed.has(session)) continue;
      doomed.add(session);
      total--;
    }
    return [...doomed];
  }

  add(session: McpSession): void {
    this.byId.set(session.id, session);
    this.countByEmail.set(session.email, this.countFor(session.email) + 1);
  }

  remove(id: string): void {
    const session = this.byId.get(id);
    if (!session) return;
    this.byId.delete(id);
    const left = this.countFor(session.email) - 1;
    if (left > 0) this.countByEmail.set(session.email, left);
    else this.countByEmail.delete(session.email);
  }

  all(): McpSession[] {
    return [...this.byId.values()];
  }
}
