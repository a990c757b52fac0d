// The tests never write into the real home of whoever runs them (issue 47): a child started without HOME falls
// back to the user database's home, and svcctl's compile cache, config or spool would land there. The runner gives
// its tests a temp HOME and XDG folders, and compares svcctl's folders of the real home before and after the run.
import { lstatSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';

/** svcctl's folders of a home, where the XDG defaults put them. */
const OWN_FOLDERS = [
  ['.cache', 'svcctl'],
  ['.config', 'svcctl'],
  ['.local', 'state', 'svcctl'],
  ['.local', 'share', 'svcctl'],
];

/** The real home: the user database's, whatever HOME says. */
export function realHome() {
  return userInfo().homedir;
}

/** Each file and folder under svcctl's folders of `home`, with its kind, size and modification time. */
export function svcctlFilesIn(home) {
  const files = new Map();
  for (const parts of OWN_FOLDERS) {
    const folder = join(home, ...parts);
    let names;
    try {
      names = readdirSync(folder, { recursive: true });
    } catch {
      continue;
    }
    for (const name of ['', ...names]) {
      const path = join(folder, name);
      try {
        const info = lstatSync(path);
        files.set(path, `${info.isDirectory() ? 'folder' : 'file'} ${info.size} ${info.mtimeMs}`);
      } catch {}
    }
  }
  return files;
}

/** What a run added, changed or removed: one line each. */
export function changedFiles(before, after) {
  const lines = [];
  for (const [path, state] of after) {
    if (!before.has(path)) lines.push(`added ${path}`);
    else if (before.get(path) !== state) lines.push(`changed ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) lines.push(`removed ${path}`);
  return lines;
}

/** HOME and the XDG folders of the tests: all in `home`, a temp folder. */
export function testHomeEnv(home) {
  return {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
}
