// One synchronous write per line, so an interruption never leaves a half-written line.
import { accessSync, closeSync, constants, fstatSync, lstatSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { usageError } from '../core/errors.js';
import { openAppendTarget, refusalFor, refusedTarget, trustRefusalFor } from '../fs/no-follow.js';

export class FailedOut {
  private fd: number | undefined;

  /** `path` as the user gave it (messages name it so); files are opened relative to `cwd`. */
  constructor(
    readonly path: string | undefined,
    private readonly cwd: string,
  ) {}

  /** Appending to the file being read would never end, so the input itself is refused. */
  check(input: string | undefined): void {
    if (this.path === undefined) return;
    const full = resolve(this.cwd, this.path);
    const existing = statOrUndefined(full, lstatSync);
    const refusal = existing && refusalFor(existing);
    if (refusal) throw refusedTarget(this.path, '--failed-out', refusal);
    const untrusted = existing && trustRefusalFor(existing);
    if (untrusted) throw refusedTarget(this.path, '--failed-out', untrusted, true);
    try {
      const target = existing ? full : dirname(full);
      if (!existing && !statSync(target).isDirectory()) throw new Error('not a folder');
      accessSync(target, constants.W_OK);
    } catch {
      const what = existing ? 'is not writable' : 'is in a folder that does not exist or is not writable';
      throw usageError(`--failed-out '${this.path}' ${what}`);
    }
    const source =
      input === '-' ? fstatOrUndefined(0) : input === undefined ? undefined : statOrUndefined(resolve(this.cwd, input));
    if (existing && source && existing.dev === source.dev && existing.ino === source.ino) {
      throw usageError(
        `--failed-out '${this.path}' is the input itself`,
        'write the failed lines to another file, e.g. failed-again.ndjson',
      );
    }
  }

  append(raw: Buffer): void {
    if (this.path === undefined) return;
    if (this.fd === undefined) {
      this.fd = openAppendTarget(resolve(this.cwd, this.path), '--failed-out', this.path);
    }
    writeSync(this.fd, Buffer.concat([raw, Buffer.from('\n')]));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function statOrUndefined(path: string, stat: (path: string) => Stats = statSync): Stats | undefined {
  try {
    return stat(path);
  } catch {
    return undefined;
  }
}

function fstatOrUndefined(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined;
  }
}
