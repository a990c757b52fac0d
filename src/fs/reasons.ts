/**
 * Why a file could not be read or written, in words: a bare EISDIR or ENOENT
 * tells a user little. These are bare reasons ('no such file'); the caller
 * wraps them in its own sentence (fileReadError in input.ts, the config writers).
 */

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** The code itself, or the message, when there are no better words for it. */
const rawReason = (error: unknown): string => codeOf(error) ?? (error instanceof Error ? error.message : String(error));

const READ_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
};

/** True when fileReadReason has words for the error (not just its code). */
export function isDescribedReadError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && Object.hasOwn(READ_REASONS, code);
}

/** Why a file could not be read: 'no such file', 'is a folder, not a file', 'permission denied', …, else the code. */
export function fileReadReason(error: unknown): string {
  const code = codeOf(error);
  return (code !== undefined ? READ_REASONS[code] : undefined) ?? rawReason(error);
}

export function fileWriteReason(error: unknown): string {
  const code = codeOf(error);
  if (code === 'EISDIR') return 'it is a folder, not a file';
  // ENOENT on a write means the file's folder is missing (the file itself would be created).
  if (code === 'ENOENT') return 'its folder does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a part of the path is not a folder';
  return rawReason(error);
}
