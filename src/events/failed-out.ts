/**
 * --failed-out: every line that was not delivered is appended, byte for byte,
 * with one synchronous write per line so that an interruption never leaves a
 * half-written line. The file is created on the first failure.
 */
import { accessSync, closeSync, constants, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { usageError } from '../errors.js';

export class FailedOut {
  private fd: number | undefined;
  count = 0;

  constructor(readonly path: string | undefined) {}

  /** Fails before anything is sent when the file could not be written. */
  check(): void {
    if (this.path === undefined) return;
    try {
      accessSync(dirname(resolve(this.path)), constants.W_OK);
    } catch {
      throw usageError(`--failed-out '${this.path}': its folder does not exist or is not writable`);
    }
  }

  append(raw: Buffer): void {
    this.count++;
    if (this.path === undefined) return;
    if (this.fd === undefined) {
      try {
        this.fd = openSync(this.path, 'a', 0o600);
      } catch (error) {
        throw usageError(`cannot open --failed-out '${this.path}': ${(error as NodeJS.ErrnoException).code ?? error}`);
      }
    }
    writeSync(this.fd, Buffer.concat([raw, Buffer.from('\n')]));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
