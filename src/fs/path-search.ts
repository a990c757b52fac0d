// Not the `which` package (in dist/ through cross-spawn): it reads process.platform, PATH and cwd itself and on Windows
// searches the current folder first, where a cloned project could plant `npx.cmd`. Here all three come from the
// context (nor the `which` program: minimal images lack it); Windows tries each PATHEXT.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

async function isExecutable(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    if (platform !== 'win32') await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function findProgram(
  program: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  cwd: string,
): Promise<string | undefined> {
  const api = platform === 'win32' ? path.win32 : path.posix;
  const extensions =
    platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const candidates = (base: string): string[] => extensions.map((ext) => `${base}${ext}`);
  if (program.includes('/') || (platform === 'win32' && program.includes('\\'))) {
    for (const file of candidates(api.resolve(cwd, program))) if (await isExecutable(file, platform)) return file;
    return undefined;
  }
  const pathValue = (platform === 'win32' ? (env.PATH ?? env.Path) : env.PATH) ?? '';
  for (const dir of pathValue.split(api.delimiter)) {
    if (dir === '') continue;
    for (const file of candidates(api.join(dir, program))) if (await isExecutable(file, platform)) return file;
  }
  return undefined;
}
