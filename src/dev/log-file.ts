/**
 * `svcctl dev --log-file FILE`: the sandbox's messages and request log are
 * appended to FILE (created 0600) instead of going to stderr, one whole line
 * per write, so a sandbox in the background never writes into the terminal
 * the user goes on typing in.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { usageError } from '../errors.js';
import { fileWriteReason } from '../fs-reasons.js';

export interface LogFile {
  line(text: string): void;
  close(): Promise<void>;
}

export async function openLogFile(file: string): Promise<LogFile> {
  const stream: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  await Promise.race([once(stream, 'open'), once(stream, 'error').then(([error]) => Promise.reject(error))]).catch((error: NodeJS.ErrnoException) => {
    throw usageError(`cannot write --log-file '${file}': ${fileWriteReason(error)}`);
  });
  // A write that fails later (disk full) must not end the sandbox: the log is best effort.
  stream.on('error', () => {});
  return {
    line: (text) => {
      if (!stream.destroyed) stream.write(`${text}\n`);
    },
    close: () => new Promise<void>((resolve) => (stream.destroyed ? resolve() : stream.end(() => resolve()))),
  };
}
