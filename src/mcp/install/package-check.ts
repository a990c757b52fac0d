/**
 * Whether the npm registry has the package a local entry runs (`npx -y <spec>`), asked once at install: an entry
 * whose package is missing cannot start, and without this only `mcp doctor` would say so. One GET of the package's
 * document from the registry npx would use (the registry settings of the environment and of the user's .npmrc,
 * the ones npm reads outside a project: https://docs.npmjs.com/cli/v10/using-npm/config, read 2026-11-28), with a
 * short deadline; any answer but "it is there" is a warning, never a refusal (a private registry may need a login
 * npx has and svcctl does not ask for).
 */
import { join } from 'node:path';
import type { Context } from '../../core/context.js';
import { describeNetworkError } from '../../http/network-errors.js';
import { createTransport } from '../../http/transport.js';
import { readRegularFile } from '../../fs/regular-file.js';

/** Long enough for a registry across the world, short enough that an install does not seem to hang. */
export const PACKAGE_CHECK_MS = 3000;
const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';
const REGISTRY = { what: 'npm registry', hint: 'start the registry, or check `npm config get registry`' };

export type PackageCheck =
  | { kind: 'found' }
  | { kind: 'missing'; what: string }
  | { kind: 'unknown'; why: string }
  | { kind: 'not-registry' }
  | { kind: 'offline' };

/** What to do when the registry does not have the package: the same words in `mcp install` and `mcp doctor`. */
export const missingPackageFix = (pkg: string): string =>
  `${pkg} is the service's MCP server package that a local entry runs; this npm registry (npm config get registry) does not have it. If your deployment names it otherwise (another name, version, registry, or a .tgz file), reinstall the entry with it (it is kept in the entry's args): svcctl mcp install --package <spec> --force, with the same --client and --scope. To try a client against the sandbox without it: --mode remote`;

/** `name` or `name@tag-or-version` (scoped too); undefined for a path, URL, git or alias spec, which npx takes as is. */
export function registrySpec(spec: string): { name: string; wanted: string } | undefined {
  const match = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@([^\s/:]+))?$/i.exec(spec);
  if (match === null || spec.endsWith('.tgz')) return undefined;
  return { name: match[1]!, wanted: match[2] ?? 'latest' };
}

/** `registry=` (or the package scope's `@scope:registry=`) from an .npmrc text, last one winning, as npm reads it. */
function npmrcRegistry(text: string, key: string): string | undefined {
  let found: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^=;#\s]+)\s*=\s*(\S+)\s*$/.exec(line);
    if (match?.[1] === key) found = match[2];
  }
  return found;
}

async function registryFor(
  setting: (key: string) => string | undefined,
  homeDir: string,
  name: string,
): Promise<string> {
  const scope = name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined;
  const keys = [...(scope ? [`${scope}:registry`] : []), 'registry'];
  // As npm, an .npmrc that cannot be read is no setting; a FIFO there is not waited on (src/fs/regular-file.ts).
  const npmrc = await readRegularFile(setting('userconfig') ?? join(homeDir, '.npmrc')).then(
    ({ bytes }) => bytes.toString('utf8'),
    () => '',
  );
  for (const key of keys) {
    const registry = setting(key.toLowerCase()) ?? npmrcRegistry(npmrc, key);
    if (registry) return registry.endsWith('/') ? registry : `${registry}/`;
  }
  return DEFAULT_REGISTRY;
}

export async function checkPackage(
  ctx: Pick<Context, 'env' | 'homeDir'>,
  spec: string,
  timeoutMs = PACKAGE_CHECK_MS,
): Promise<PackageCheck> {
  const parsed = registrySpec(spec);
  if (parsed === undefined) return { kind: 'not-registry' };
  const setting = (key: string): string | undefined =>
    Object.entries(ctx.env).find(([variable]) => variable.toLowerCase() === `npm_config_${key}`)?.[1];
  // npm set offline never asks the registry (npx takes what is in its cache): neither does svcctl.
  if (/^(true|1)$/i.test(setting('offline') ?? '')) return { kind: 'offline' };
  const registry = await registryFor(setting, ctx.homeDir, parsed.name);
  const url = `${registry}${parsed.name.replace('/', '%2f')}`;
  let transport: Awaited<ReturnType<typeof createTransport>> | undefined;
  try {
    transport = await createTransport({ env: ctx.env, origin: new URL(url).origin, timeoutMs });
    // The abbreviated document npm itself asks for: its tags and versions, without every readme.
    const response = await transport.send({
      url,
      method: 'GET',
      headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
    });
    if (response.status === 404) return { kind: 'missing', what: `${registry} has no package ${parsed.name}` };
    if (response.status !== 200) return { kind: 'unknown', why: `${url} answered HTTP ${response.status}` };
    return versionIn(response.body, parsed, registry);
  } catch (error) {
    return { kind: 'unknown', why: describeNetworkError(error, url, timeoutMs / 1000, REGISTRY).message };
  } finally {
    await transport?.abort().catch(() => undefined);
  }
}

/** A tag or exact version the document does not list is missing too; a range, or a document cut off, is let be. */
function versionIn(body: string, parsed: { name: string; wanted: string }, registry: string): PackageCheck {
  let document: { 'dist-tags'?: Record<string, string>; versions?: Record<string, unknown> };
  try {
    document = JSON.parse(body);
  } catch {
    return { kind: 'found' };
  }
  const { wanted } = parsed;
  const exact = /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(wanted);
  const tag = /^[a-z][\w.-]*$/i.test(wanted);
  if (exact && document.versions && !(wanted in document.versions))
    return { kind: 'missing', what: `${registry} has ${parsed.name}, but not its version ${wanted}` };
  if (tag && document['dist-tags'] && !(wanted in document['dist-tags']))
    return { kind: 'missing', what: `${registry} has ${parsed.name}, but no version tagged ${wanted}` };
  return { kind: 'found' };
}
