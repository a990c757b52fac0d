// One NDJSON line per event, {"received_at","webhook","event":{...}}; an existing file is read back on start, so a
// restarted sandbox still knows its ids.
import { createWriteStream, type WriteStream } from 'node:fs';
import { openAppendTarget } from '../fs/no-follow.js';
import { readFile } from 'node:fs/promises';
import { fileReadError } from '../fs/read-input.js';

export interface StoredEvent {
  received_at: string;
  webhook: string;
  event: Record<string, unknown> & { id: string };
}

export class EventStore {
  private readonly byId = new Map<string, StoredEvent>();
  /** In arrival order; the MCP tools read it newest first. */
  private readonly ordered: StoredEvent[] = [];
  private stream: WriteStream | undefined;

  static async open(file: string | undefined, warn: (message: string) => void = () => {}): Promise<EventStore> {
    const store = new EventStore();
    if (file === undefined) return store;
    await store.load(file, warn);
    store.stream = createWriteStream('', { fd: openAppendTarget(file, '--events-file') });
    return store;
  }

  private async load(file: string, warn: (message: string) => void): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw fileReadError(file, error, '--events-file');
    }
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const record = JSON.parse(line) as StoredEvent;
        if (typeof record?.event?.id !== 'string') throw new Error('no event id');
        this.remember(record);
      } catch {
        skipped++;
      }
    }
    if (skipped > 0)
      warn(
        `${file}: ${skipped} ${skipped === 1 ? 'line that is not a stored event was' : 'lines that are not stored events were'} skipped`,
      );
  }

  get size(): number {
    return this.ordered.length;
  }

  get(id: string): StoredEvent | undefined {
    return this.byId.get(id.toLowerCase());
  }

  /** Newest first. */
  latest(limit: number): StoredEvent[] {
    return this.ordered.slice(-limit).reverse();
  }

  /** Resolves once the line is handed to the file, so a 202 means the event is on disk (or in the OS's cache). */
  async add(record: StoredEvent): Promise<boolean> {
    if (this.byId.has(record.event.id.toLowerCase())) return false;
    this.remember(record);
    const stream = this.stream;
    if (stream) {
      await new Promise<void>((resolve, reject) =>
        stream.write(`${JSON.stringify(record)}\n`, (error) => (error ? reject(error) : resolve())),
      );
    }
    return true;
  }

  async close(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    if (stream) await new Promise<void>((resolve) => stream.end(resolve));
  }

  private remember(record: StoredEvent): void {
    // UUIDs are compared without case, so 6F1C… and 6f1c… are the same event.
    this.byId.set(record.event.id.toLowerCase(), record);
    this.ordered.push(record);
  }
}
