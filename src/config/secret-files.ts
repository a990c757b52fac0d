// The files named by --token-file, --hmac-secret-file and --password-file. A regular file must be the user's alone, as
// ssh demands of a private key: one that others can read has leaked already, one they can write chooses the secret.
// A pipe (`--token-file <(pass show ingest)`, a FIFO another program writes) is the user's own choice and is read as
// it comes; a device or a socket is never opened (/dev/zero would never end). Rules: docs/security.md ("Secret files").
import { promises as fs } from 'node:fs';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { readFileOrPipe } from '../fs/file-or-pipe.js';
import type { UnreadableFileError } from '../fs/regular-file.js';

/** A secret is a line: more than this is not a secret file (and a pipe that never ends is cut off here). */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** The text of a secret file (absolute path): a regular file or a pipe, else an UnreadableFileError. */
export async function readSecretFileText(absolute: string): Promise<string> {
  return (await readFileOrPipe(absolute, MAX_SECRET_FILE_BYTES)).toString('utf8');
}

/** Exit 7 for a regular secret file with any group or other bit (read or write): `chmod 600` is the fix. On Windows
 * permissions are ACLs, not mode bits, and Node reports a mode made up from the read-only flag: nothing to check. */
export async function checkSecretFileMode(
  shown: string,
  absolute: string,
  flag: string,
  platform: NodeJS.Platform,
): Promise<void> {
  if (platform === 'win32') return;
  let info;
  try {
    info = await fs.stat(absolute);
  } catch {
    return; // the read that follows says why it cannot read the file
  }
  if (!info.isFile() || (info.mode & 0o066) === 0) return;
  const mode = (info.mode & 0o777).toString(8);
  const who = info.mode & 0o022 ? 'written' : 'read';
  throw new CliError(
    ExitCode.UnsafeConfig,
    `${flag} ${shown} can be ${who} by other users (mode ${mode}): svcctl uses a secret file only when it is yours alone`,
    { hint: `chmod 600 '${shown}'` },
  );
}

export function unreadableSecretFile(shown: string, flag: string, error: UnreadableFileError): CliError {
  return usageError(`${flag}: ${shown} ${error.message}`, 'give a regular file that holds the secret, or a pipe');
}
