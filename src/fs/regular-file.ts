// Regular files only, opened O_NONBLOCK and capped: a FIFO or /dev/zero hangs (architecture.md "Regular files only").
import { closeSync, constants, fstatSync, promises as fs, openSync, readSync, type Stats } from 'node:fs';

export const NONBLOCK = constants.O_NONBLOCK ?? 0;
export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** What most files svcctl reads may hold: a client's config, svcctl's own files (issue 47: a 1 GB mcp.json). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

export interface RegularFileOptions {
  /** Larger is refused before reading (default MAX_FILE_BYTES). */
  maxBytes?: number;
  /** Refuse a link at the path itself (ELOOP from open). */
  noFollow?: boolean;
}

export interface RegularFile {
  bytes: Buffer;
  info: Stats;
}

/** Why a file is not read, as the end of a sentence that names it ("~/.cursor/mcp.json is a named pipe …"). */
export class UnreadableFileError extends Error {
  /** `tooLarge`: a file of the right kind, refused for its size only (no hint to give another kind). */
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

export function notRegularReason(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'is a folder, not a file';
  if (info.isFIFO()) return 'is a named pipe (FIFO), not a regular file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'is a device, not a regular file';
  if (info.isSocket()) return 'is a socket, not a regular file';
  return 'is not a regular file';
}

const MIB = 1024 * 1024;

/** Exact under 10 MiB (a file just over a 1 MiB limit), rounded above: "1048577 bytes", "64 KiB", "16 MiB", "1.0 GiB". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MIB) return `${(bytes / (1024 * MIB)).toFixed(1)} GiB`;
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes < MIB && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return bytes >= 10 * MIB ? `${Math.round(bytes / MIB)} MiB` : `${bytes} bytes`;
}

/** The refusal of `info`, if any: not a regular file, or larger than `maxBytes`. */
export function unreadableReason(info: Stats, maxBytes: number): string | undefined {
  const notRegular = notRegularReason(info);
  if (notRegular !== undefined) return notRegular;
  if (info.size > maxBytes) return `is ${sizeText(info.size)}, over the limit of ${sizeText(maxBytes)}`;
  return undefined;
}

const flagsFor = (options: RegularFileOptions): number =>
  constants.O_RDONLY | NONBLOCK | (options.noFollow ? NOFOLLOW : 0);

/** Throws the open's own error (ENOENT, EACCES, ELOOP) or an UnreadableFileError. */
export async function readRegularFile(path: string, options: RegularFileOptions = {}): Promise<RegularFile> {
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  const handle = await fs.open(path, flagsFor(options));
  try {
    const info = await handle.stat();
    const reason = unreadableReason(info, maxBytes);
    if (reason !== undefined) throw new UnreadableFileError(reason, info.isFile());
    // One byte more than the cap: a file that grew since the stat is refused, not cut.
    const bytes = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === bytes.length) break;
    }
    if (length > maxBytes) throw new UnreadableFileError(`grew over the limit of ${sizeText(maxBytes)}`, true);
    return { bytes: bytes.subarray(0, length), info };
  } finally {
    await handle.close();
  }
}

/** readRegularFile, synchronously (probes that a sync caller makes, start-up reads). */
export function readRegularFileSync(path: string, options: RegularFileOptions = {}): RegularFile {
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  const fd = openSync(path, flagsFor(options));
  try {
    const info = fstatSync(fd);
    const reason = unreadableReason(info, maxBytes);
    if (reason !== undefined) throw new UnreadableFileError(reason, info.isFile());
    const bytes = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === bytes.length) break;
    }
    if (length > maxBytes) throw new UnreadableFileError(`grew over the limit of ${sizeText(maxBytes)}`, true);
    return { bytes: bytes.subarray(0, length), info };
  } finally {
    closeSync(fd);
  }
}
