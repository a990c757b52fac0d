/**
 * Why a file could not be written, in words: a bare EISDIR or ENOENT tells a
 * user little. (Reads have fileReadReason in input.ts.)
 */
export function fileWriteReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EISDIR') return 'it is a folder, not a file';
  // ENOENT on a write means the file's folder is missing (the file itself would be created).
  if (code === 'ENOENT') return 'its folder does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a part of the path is not a folder';
  return code ?? (error instanceof Error ? error.message : String(error));
}
