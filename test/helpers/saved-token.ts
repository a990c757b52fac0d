/** A token saved as `svcctl login --save` leaves it (credentials.json, 0600), and the files a run left under HOME. */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EMAIL } from './login-server.js';

export const credentialsFile = (home: string): string => join(home, '.config', 'svcctl', 'credentials.json');

export async function saveToken(
  home: string,
  baseUrl: string,
  token: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const entry = { access_token: token, email: EMAIL, expires_at: null, saved_at: new Date().toISOString(), ...extra };
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true, mode: 0o700 });
  await writeFile(credentialsFile(home), JSON.stringify({ version: 1, tokens: { [baseUrl]: entry } }), { mode: 0o600 });
}

/** Every file under `dir`, to look for a secret left behind. */
export async function filesUnder(dir: string, tries = 40): Promise<string[]> {
  // gnome-keyring-daemon may still be replacing its own temp files under HOME as it shuts down: read again then.
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' || tries <= 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
      return null;
    },
  );
  if (entries === null) return filesUnder(dir, tries - 1);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}
