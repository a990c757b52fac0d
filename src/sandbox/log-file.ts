// One whole line per write, so a sandbox in the background never writes into the terminal the user is typing in.
import { createWriteStream, type WriteStream } from 'node:fs';
import { openAppendTarget } from '../fs/no-follow.js';

export interface LogFile {
  line(text: string): void;
  close(): Promise<void>;
}

export async function openLogFile(file: string): Promise<LogFile> {
  const stream: WriteStream = createWriteStream('', { fd: openAppendTarget(file, '--log-file') });
  // A write that fails later (disk full) must not end the sandbox: the log is best effort.
  stream.on('error', () => {});
  return {
    line: (text) => {
      if (!stream.destroyed) stream.write(`${text}\n`);
    },
    close: () => new Promise<void>((resolve) => (stream.destroyed ? resolve() : stream.end(() => resolve()))),
  };
}
