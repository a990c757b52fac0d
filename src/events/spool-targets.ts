// Events are spooled in a folder per base URL, named by its hash, so a flush sends only what was meant for where it
// sends: the event's body holds no destination, and a token sent elsewhere signs it for a deployment it never saw.
// The base-url file only names the folder in messages; which folder is sent never depends on what a file says.
// An earlier svcctl ignores these folders (it sends DIR/*.json only), so it cannot send them astray either.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { parseBaseUrl } from '../config/settings.js';
import { replaceFile } from '../fs/no-follow.js';
import { countSpooled } from './spool.js';
import { SpoolFolder } from './spool-trust.js';

const RECORD = 'base-url';
const FOLDER = /^base-[0-9a-f]{16}$/;

export const targetFolderName = (baseUrl: string): string =>
  `base-${createHash('sha256').update(baseUrl).digest('hex').slice(0, 16)}`;

export const targetSpool = (root: SpoolFolder, baseUrl: string): SpoolFolder =>
  new SpoolFolder(root.path(targetFolderName(baseUrl)), root.uid, root);

/** Creates the folder of `baseUrl` with its base-url file, for spoolEvent. */
export async function spoolFor(root: SpoolFolder, baseUrl: string): Promise<SpoolFolder> {
  const spool = targetSpool(root, baseUrl);
  await spool.ensure();
  const record = spool.path(RECORD);
  const present = await fs.lstat(record).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!present) await replaceFile(record, `${baseUrl}\n`, 0o600);
  return spool;
}

export interface OtherTarget {
  /** undefined when the folder's base-url file is missing or does not match its name. */
  baseUrl: string | undefined;
  folder: string;
  events: number;
}

async function recordedUrl(spool: SpoolFolder, name: string): Promise<string | undefined> {
  const path = spool.path(RECORD);
  const text = await spool.read(path, path, undefined).then(
    (bytes) => bytes.toString('utf8').trim(),
    (error: unknown) => ((error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : Promise.reject(error)),
  );
  if (text === undefined) return undefined;
  try {
    const { url } = parseBaseUrl(text);
    return targetFolderName(url) === name ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The folders of the spool's base URLs that hold events, each checked as the spool is. */
export async function spooledTargets(root: SpoolFolder): Promise<OtherTarget[]> {
  const names = (await fs.readdir(root.dir).catch(() => [] as string[])).filter((n) => FOLDER.test(n));
  const found: OtherTarget[] = [];
  for (const name of names.sort()) {
    await root.check(name);
    const spool = new SpoolFolder(root.path(name), root.uid, root);
    const events = await countSpooled(spool.dir);
    if (events > 0) found.push({ baseUrl: await recordedUrl(spool, name), folder: spool.dir, events });
  }
  return found;
}

/** The targets of `spooled` other than `baseUrl`. */
export const otherTargets = (spooled: OtherTarget[], root: SpoolFolder, baseUrl: string): OtherTarget[] =>
  spooled.filter((target) => target.folder !== targetSpool(root, baseUrl).dir);
