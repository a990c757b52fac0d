// Nothing secret in it. Never read or written through a link: it chooses where credentials are sent (exit 7).
// Loaded, with smol-toml, only when no flag or variable names a base URL. Which deployment wins: docs/deployments.md.
import { lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from './config-dir.js';
import type { Context, Deployment, Picked } from '../core/context.js';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { fileReadReason } from '../fs/reasons.js';
import { readRegularFile, type RegularFile, UnreadableFileError } from '../fs/regular-file.js';
import { updateSafely } from '../fs/safe-write.js';
import { editDeploymentsText } from './deployments-edit.js';
import { checkConfigFile, checkConfigFolder, NotYoursAlone, type OwnFilesContext } from './own-files-trust.js';
import { parseDeployments, type DeploymentsFile, type ParsedDeployments } from './deployments-shape.js';
import { parseBaseUrl } from './settings.js';

export type { Deployment, Picked } from '../core/context.js';
export type { DeploymentsFile } from './deployments-shape.js';

type PathContext = Pick<Context, 'env' | 'homeDir'>;

export const deploymentsPath = (ctx: PathContext): string => join(configDir(ctx), 'config.toml');

export const nameFor = (baseUrl: string): string => new URL(baseUrl).host;

const NEW_FILE = "# svcctl's deployments (svcctl deployment list | use | add | remove). No secret is kept here.\n\n";

/** At most this many names in a message: a file may hold thousands. */
const SHOWN_NAMES = 20;
export const someNames = (names: string[]): string =>
  names.length <= SHOWN_NAMES
    ? names.join(', ')
    : `${names.slice(0, SHOWN_NAMES).join(', ')} and ${names.length - SHOWN_NAMES} more`;

async function linkRefusal(path: string): Promise<CliError> {
  const target = await readlink(path).catch(() => 'somewhere else');
  return new CliError(
    ExitCode.UnsafeConfig,
    `${path} is a symbolic link (to ${target}); svcctl neither reads nor writes config.toml through a link`,
    {
      hint: 'replace the link with a copy of the file it points to (a regular file of yours), or delete it',
    },
  );
}

const REMAKE = 'save your deployments again (svcctl deployment add NAME URL)';

async function readConfigText(ctx: OwnFilesContext, path: string): Promise<string | undefined> {
  await checkConfigFolder(ctx);
  let file: RegularFile;
  try {
    file = await readRegularFile(path, { noFollow: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') throw await linkRefusal(path);
    if (error instanceof UnreadableFileError)
      throw new CliError(ExitCode.UnsafeConfig, `${path} ${error.message}`, {
        hint: 'make it a regular file of yours, or delete it and log in again with --save',
      });
    throw new CliError(ExitCode.UnsafeConfig, `cannot read ${path}: ${fileReadReason(error)}`, { cause: error });
  }
  checkConfigFile(ctx, path, path, file.info, REMAKE);
  return file.bytes.toString('utf8');
}

/** One parse per run of the same text: the program reads the file before a `deployment` command reads it again. */
let lastParse: { path: string; text: string; parsed: ParsedDeployments } | undefined;

function parsed(text: string, path: string): ParsedDeployments {
  if (lastParse?.path !== path || lastParse.text !== text)
    lastParse = { path, text, parsed: parseDeployments(text, path) };
  return lastParse.parsed;
}

const copyOf = (file: DeploymentsFile): DeploymentsFile => ({
  ...file,
  deployments: file.deployments.map((d) => ({ ...d })),
});

export async function readDeployments(ctx: OwnFilesContext): Promise<DeploymentsFile> {
  const path = deploymentsPath(ctx);
  const text = await readConfigText(ctx, path);
  return text === undefined ? { deployments: [] } : copyOf(parsed(text, path).file);
}

// The previous content is kept as config.toml.bak: it holds no secret.
export async function changeDeployments(
  ctx: OwnFilesContext,
  change: (file: DeploymentsFile) => boolean,
): Promise<void> {
  const path = deploymentsPath(ctx);
  await checkConfigFolder(ctx, { writing: true });
  if ((await lstat(path).catch(() => undefined))?.isSymbolicLink()) throw await linkRefusal(path);
  await updateSafely(
    path,
    async (snapshot) => {
      if (snapshot.realPath !== snapshot.path) throw await linkRefusal(path);
      if (snapshot.exists) checkConfigFile(ctx, path, path, { uid: snapshot.uid!, mode: snapshot.mode! }, REMAKE);
      const text = snapshot.exists ? snapshot.text : '';
      const before = text.trim() === '' ? { deployments: [] } : parsed(text, path).file;
      const after = copyOf(before);
      if (!change(after)) return undefined;
      return editDeploymentsText(text.trim() === '' ? NEW_FILE : text, path, before, after);
    },
    { mode: 0o600, privateFolder: true, backup: true },
  );
}

export async function rememberDeployment(ctx: OwnFilesContext, baseUrl: string): Promise<string> {
  let name = nameFor(baseUrl);
  await changeDeployments(ctx, (file) => {
    const known = file.deployments.find((d) => d.baseUrl === baseUrl);
    if (known) {
      name = known.name;
      return false;
    }
    while (file.deployments.some((d) => d.name === name)) name = `${name}-2`;
    file.deployments.push({ name, baseUrl });
    file.default ??= name;
    return true;
  });
  return name;
}

export async function pickDeployment(
  ctx: OwnFilesContext,
  wanted: { name: string; source: string } | undefined,
  savedLogins: () => Promise<string[]>,
): Promise<Picked> {
  const file = await readDeployments(ctx);
  const byName = (name: string): Deployment | undefined => file.deployments.find((d) => d.name === name);
  if (wanted) {
    const found = byName(wanted.name);
    if (!found) {
      throw usageError(
        `${wanted.source}: no deployment named '${wanted.name}'`,
        file.deployments.length > 0
          ? `saved deployments: ${someNames(file.deployments.map((d) => d.name))} (svcctl deployment list)`
          : 'save one with svcctl login --save (with --base-url), or svcctl deployment add NAME URL',
      );
    }
    return { kind: 'picked', deployment: found, source: wanted.source };
  }
  if (file.default !== undefined && byName(file.default))
    return {
      kind: 'picked',
      deployment: byName(file.default)!,
      source: `the default deployment of ${deploymentsPath(ctx)}`,
    };
  if (file.deployments.length === 1)
    return {
      kind: 'picked',
      deployment: file.deployments[0]!,
      source: `the only deployment of ${deploymentsPath(ctx)}`,
    };
  if (file.deployments.length > 1) return { kind: 'ambiguous', names: file.deployments.map((d) => d.name) };
  // A planted credentials file would otherwise pick the deployment its one login names.
  const logins = await savedLogins().catch((error: unknown) => {
    if (error instanceof NotYoursAlone) throw error;
    return [];
  });
  if (logins.length === 1) {
    const baseUrl = parseBaseUrl(logins[0]!, 'the saved login').url;
    return { kind: 'picked', deployment: { name: nameFor(baseUrl), baseUrl }, source: 'the only saved login' };
  }
  return logins.length > 1 ? { kind: 'ambiguous', names: logins } : { kind: 'none' };
}
