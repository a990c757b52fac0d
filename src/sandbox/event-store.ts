// One NDJSON line per event, {"received_at","webhook","event":{...}}; an existing file is read back on start, so a
// restarted sandbox still knows its ids.
import { closeSync, createWriteStream, fstatSync, readFileSync, type WriteStream } from 'node:fs';
import { usageError } from '../core/errors.js';
import { openAppendTarget } from '../fs/no-follow.js';
import { fileReadError } from '../fs/read-input.js';

export interface StoredEvent {
  received_at: string;
  webhook: string;
  event: Record<string, unknown> & { id: string };
}

// Far above what a sandbox collects (thousands of events fill a few MiB), and half of V8's longest string, so
// the text still fits one; the parsed events take a few times that in memory.
export const EVENTS_FILE_READ_LIMIT = 256 * 1024 * 1024;

export class EventStore {
  private readonly byId = new Map<string, StoredEvent>();
  /** In arrival order; the MCP tools read it newest first. */
  private readonly ordered: StoredEvent[] = [];
  private stream: WriteStream | undefined;

  // Opened once, without following a link, and checked (a regular file of yours, one name) before a byte is read.
  static async open(file: string | undefined, warn: (message: string) => void = () => {}): Promise<EventStore> {
    const store = new EventStore();
    if (file === undefined) return store;
    const fd = openAppendTarget(file, '--events-file', file, true);
    try {
      store.load(file, readExisting(fd, file), warn);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    store.stream = createWriteStream('', { fd });
    return store;
  }

  private load(file: string, text: string, warn: (message: string) => void): void {
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

function readExisting(fd: number, file: string): string {
  // Read from the checked descriptor; for a regular file Node reads the size fstat gives, so growth is not read.
  if (fstatSync(fd).size > EVENTS_FILE_READ_LIMIT)
    throw usageError(
      `--events-file '${file}' is larger than ${EVENTS_FILE_READ_LIMIT / 1024 / 1024} MiB, more than svcctl dev reads back`,
      'move it aside or name a new file: the sandbox then starts with no earlier events',
    );
  try {
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw fileReadError(file, error, '--events-file');
  }
}
