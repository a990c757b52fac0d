/** NDJSON batches for tests: `count` complete events in wire form, each with its own id. */
import { randomUUID } from 'node:crypto';

export function eventLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      event: {
        id: randomUUID(),
        title: `event ${i + 1}`,
        created_at: '2026-11-22T02:31:00.000Z',
        investigate: false,
        payload: '{}',
      },
    }),
  );
}
