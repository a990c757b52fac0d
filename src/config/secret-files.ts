// The files named by --token-file, --hmac-secret-file and --password-file. A regular file must be the user's alone, as
// ssh demands of a private key: one that others can read has leaked already, one they can write chooses the secret.
// A pipe (`--token-file <(pass show ingest)`, a FIFO another program writes) is the user's own choice and is read as
// it comes; a device or a socket is never opened (/dev/zero would never end). Rules: docs/security.md ("Secret files").
import { createReadStream, promises as fs } from 'node:fs';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { whileBlocking } from '../core/interrupt.js';
import { notRegularReason, readRegularFile, UnreadableFileError } from '../fs/regular-file.js';

/** A secret is a line: more than this is not a secret file (and a pipe that never ends is cut off here). */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

// A pipe's open waits for its writer in a thread-pool thread: the interrupt handler knows, so a signal still ends svcctl.
function readPipe(path: string): Promise<string> {
  return whileBlocking(
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const stream = createReadStream(path);
      stream.on('data', (chunk: Buffer | string) => {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        chunks.push(bytes);
        length += bytes.length;
        if (length > MAX_SECRET_FILE_BYTES) {
          stream.destroy();
          reject(new UnreadableFileError(`gave more than ${MAX_SECRET_FILE_BYTES / 1024} KiB, too much for a secret`));
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    }),
  );
}

/** The text of a secret file (absolute path): a regular file or a pipe, else an UnreadableFileError. */
export async function readSecretFileText(absolute: string): Promise<string> {
  const info = await fs.stat(absolute);
  if (info.isFIFO()) return readPipe(absolute);
  const notRegular = notRegularReason(info);
  if (notRegular !== undefined) throw new UnreadableFileError(notRegular);
  return (await readRegularFile(absolute, { maxBytes: MAX_SECRET_FILE_BYTES })).bytes.toString('utf8');
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
