// Inputs a user may give as a file or as a pipe (`--token-file <(pass show ingest)`, `event send <(jq … )`, stdin):
// a regular file is read as regular-file.ts reads it, a pipe as it comes, and both only up to a cap, so neither
// `/dev/zero` nor a pipe that never ends fills memory. A device, a socket or a folder is never opened.
import { createReadStream, promises as fs } from 'node:fs';
import { whileBlocking } from '../core/interrupt.js';
import { notRegularReason, readRegularFile, sizeText, UnreadableFileError } from './regular-file.js';

/** A stream read whole; past `maxBytes` it is left unread and an UnreadableFileError says "gave more than …". */
export async function readBounded(stream: AsyncIterable<Buffer | string>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    length += bytes.length;
    if (length > maxBytes) throw new UnreadableFileError(`gave more than ${sizeText(maxBytes)}`, true);
  }
  return Buffer.concat(chunks, length);
}

// A pipe's open waits for its writer in a thread-pool thread: the interrupt handler knows, so a signal still ends svcctl.
function readPipe(path: string, maxBytes: number): Promise<Buffer> {
  return whileBlocking(
    (async () => {
      const stream = createReadStream(path);
      try {
        return await readBounded(stream, maxBytes);
      } finally {
        stream.destroy();
      }
    })(),
  );
}

/** A regular file or a pipe (absolute path) read whole, up to `maxBytes`; else an UnreadableFileError or the open's error. */
export async function readFileOrPipe(absolute: string, maxBytes: number): Promise<Buffer> {
  const info = await fs.stat(absolute);
  if (info.isFIFO()) return readPipe(absolute, maxBytes);
  const notRegular = notRegularReason(info);
  if (notRegular !== undefined) throw new UnreadableFileError(notRegular);
  return (await readRegularFile(absolute, { maxBytes })).bytes;
}
