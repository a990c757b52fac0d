// The caller comes from each request's authInfo, so `whoami` reports the auth method of the request it answers.
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { VERSION } from '../core/version.js';
import type { EventStore } from './event-store.js';

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 200;

const text = (value: unknown): { content: Array<{ type: 'text'; text: string }> } => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
});

export function createToolServer(store: EventStore): McpServer {
  const server = new McpServer({ name: 'svcctl-dev', version: VERSION });

  server.registerTool(
    'whoami',
    {
      description: 'The signed-in user of this MCP session and how the request authenticated.',
      annotations: { readOnlyHint: true },
    },
    (ctx) => {
      const who = (ctx.http?.authInfo?.extra ?? {}) as { email?: string; method?: string };
      return text({ email: who.email, auth_method: who.method });
    },
  );

  server.registerTool(
    'list_events',
    {
      description: 'Events the sandbox received, newest first.',
      inputSchema: z.object({
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_LIST_LIMIT)
          .optional()
          .describe(`how many (default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT})`),
      }),
      annotations: { readOnlyHint: true },
    },
    ({ limit }) => {
      const events = store.latest(limit ?? DEFAULT_LIST_LIMIT);
      return text({ total: store.size, count: events.length, events });
    },
  );

  server.registerTool(
    'get_event',
    {
      description: 'One received event by its id.',
      inputSchema: z.object({ id: z.string().min(1).describe('the event id (a UUID)') }),
      annotations: { readOnlyHint: true },
    },
    ({ id }) => {
      const found = store.get(id);
      if (!found) return { ...text({ error: `no event with id ${id}` }), isError: true };
      return text(found);
    },
  );
  return server;
}
