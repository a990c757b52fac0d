/**
 * Reads a small text file that someone else may have placed (a declaration pulled with a repository): a regular file
 * only, looked at before it is opened, so a FIFO never blocks the run and a device is never read; and no more than
 * `maxBytes`, so a huge file is refused rather than read whole.
 */
import { constants, promises as fs } from 'node:fs';
import { readRefusalFor } from './no-follow.js';

export class UnreadableFile extends Error {}

export async function readBoundedText(path: string, maxBytes: number): Promise<string> {
  const before = await fs.stat(path);
  const refusal = readRefusalFor(before);
  if (refusal !== undefined) throw new UnreadableFile(refusal);
  if (before.size > maxBytes) throw new UnreadableFile(`is ${before.size} bytes, over the limit of ${maxBytes}`);
  // Non-blocking: a FIFO put in its place since the look above opens at once and is refused below.
  const handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    const changed = readRefusalFor(info);
    if (changed !== undefined) throw new UnreadableFile(changed);
    const bytes = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw new UnreadableFile(`is over the limit of ${maxBytes} bytes`);
    return bytes.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}
