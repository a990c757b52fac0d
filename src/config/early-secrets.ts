// Secrets known before any argument is checked or echoed (a flag's value in an error, commander's own usage errors):
// svcctl's variables at once, the files named by its secret flags before commander parses, the saved tokens at the
// first write. Why each costs what it does: docs/security.md ("When secrets become known").
import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CREDENTIALS_FILE_NAME } from '../core/constants.js';
import type { KnownSecrets } from '../redaction/known-secrets.js';
import { valueForms } from '../redaction/secret-names.js';
import { readRegularFileSync } from '../fs/regular-file.js';
import { configDir } from './config-dir.js';
import { readSecretFileText } from './secret-files.js';
import { stripOneNewline } from './secret-sources.js';
import { serviceSecretVariables } from './settings.js';

/** The flags whose value names a file holding a secret (every command that has one). */
export const SECRET_FILE_FLAGS = ['--token-file', '--hmac-secret-file', '--password-file'] as const;

/** The paths given to a secret-file flag, as `--flag PATH` or `--flag=PATH`; nothing after `--` (a wrapped command's own). */
export function secretFilePaths(argv: readonly string[]): string[] {
  const paths: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--') break;
    for (const flag of SECRET_FILE_FLAGS) {
      if (arg === flag && index + 1 < argv.length) paths.push(argv[index + 1]!);
      else if (arg.startsWith(`${flag}=`)) paths.push(arg.slice(flag.length + 1));
    }
  }
  return paths.filter((path) => path !== '');
}

/** A file that cannot be read now is left to the command, which says why in its own words. */
async function learnSecretFiles(secrets: KnownSecrets, argv: readonly string[], cwd: string): Promise<void> {
  await Promise.all(
    secretFilePaths(argv).map(async (path) => {
      const absolute = resolve(cwd, path);
      const text = await readSecretFileText(absolute).catch(() => undefined);
      if (text === undefined) return;
      secrets.rememberFile(absolute, text);
      secrets.add(stripOneNewline(text));
    }),
  );
}

const MAX_CREDENTIALS_BYTES = 1 << 20;

/** Every token in the credentials file, read without following a link; anything unexpected gives none. */
export function savedTokens(path: string): string[] {
  try {
    // No file is the usual case (tokens from the environment, in CI): told without an exception, ~0.07 ms less.
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return [];
    // Not blocking: a FIFO planted there would otherwise hold this synchronous open, and the whole process, for ever.
    const { bytes } = readRegularFileSync(path, { noFollow: true, maxBytes: MAX_CREDENTIALS_BYTES });
    const file = JSON.parse(bytes.toString('utf8')) as { tokens?: Record<string, unknown> };
    return Object.values(file.tokens ?? {}).flatMap((entry) => {
      const token = (entry as { access_token?: unknown } | null)?.access_token;
      return typeof token === 'string' && token !== '' ? [token] : [];
    });
  } catch {
    return [];
  }
}

export async function learnSecretsEarly(
  secrets: KnownSecrets,
  io: { env: NodeJS.ProcessEnv; cwd: string; homeDir: string },
  argv: readonly string[],
): Promise<void> {
  for (const value of serviceSecretVariables(io.env).flatMap(valueForms)) secrets.add(value);
  secrets.addOnFirstUse(() => savedTokens(join(configDir(io), CREDENTIALS_FILE_NAME)));
  await learnSecretFiles(secrets, argv, io.cwd);
}
