// Bare reasons ('no such file'), as a bare ENOENT tells a user little; each caller wraps them in its own sentence.

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

const rawReason = (error: unknown): string => codeOf(error) ?? (error instanceof Error ? error.message : String(error));

const READ_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
};

export function isDescribedReadError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && Object.hasOwn(READ_REASONS, code);
}

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
