/**
 * The policies an organization sets on which MCP servers a client may run (docs/mcp.md, "Policies"): Claude Code's
 * managed-mcp.json and the allowedMcpServers / deniedMcpServers of its managed settings, and GitHub Copilot's file of
 * managed settings that VS Code reads. An entry such a policy blocks is written for nothing: the client refuses it
 * and nobody says why, so install refuses it first (exit 7, --force does not override it) and doctor names the rule.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../../core/context.js';
import { exitWith, ExitCode } from '../../core/errors.js';
import { foreign } from '../../core/output.js';
import { readRegularFile, UnreadableFileError } from '../../fs/regular-file.js';
import { commandLine } from '../service-entries.js';
import { CLIENTS } from '../clients/table.js';
import type { ClientId, PolicyFamily, Scope } from '../types.js';

/** Which rule of which file blocks an entry. */
export interface PolicyVerdict {
  file: string;
  rule: string;
}

/** For tests and admins: a folder that stands for the system folders, with ClaudeCode/ and GitHubCopilot/ in it. */
export const POLICY_DIR_VARIABLE = 'SVCCTL_POLICY_DIR';

/** Where each family's policy folder is: from Claude Code's program and VS Code's source (docs/mcp.md, "Policies"). */
export function policyFolder(ctx: Pick<Context, 'env' | 'platform'>, family: PolicyFamily): string {
  const override = ctx.env[POLICY_DIR_VARIABLE];
  if (override !== undefined && override !== '') return join(override, family);
  if (family === 'ClaudeCode') {
    if (ctx.platform === 'darwin') return '/Library/Application Support/ClaudeCode';
    return ctx.platform === 'win32' ? 'C:\\Program Files\\ClaudeCode' : '/etc/claude-code';
  }
  if (ctx.platform === 'darwin') return '/Library/Application Support/GitHubCopilot';
  return ctx.platform === 'win32'
    ? `${ctx.env.ProgramFiles ?? 'C:\\Program Files'}\\GitHubCopilot`
    : '/etc/github-copilot';
}

type Rule = { serverName?: unknown; serverCommand?: unknown; serverUrl?: unknown };

interface RuleList {
  file: string;
  key: 'allowedMcpServers' | 'deniedMcpServers';
  rules: Rule[];
}

interface Policy {
  denied: RuleList[];
  /** Undefined: no allowlist, every server is allowed. */
  allowed: RuleList[] | undefined;
  managedOnly: boolean;
}

/** A policy file that is there but cannot be read is a verdict of its own: what the client makes of it is unknown. */
class UnreadablePolicy extends Error {
  constructor(
    readonly file: string,
    readonly why = 'does not parse',
  ) {
    super(`${file} cannot be read as JSON`);
  }
}

// As every file svcctl reads whole (src/fs/regular-file.ts): a FIFO there would hang install and doctor for ever.
async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  const text = await readRegularFile(file).then(
    ({ bytes }) => bytes.toString('utf8'),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw new UnreadablePolicy(file, error instanceof UnreadableFileError ? error.message : undefined);
    },
  );
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw new UnreadablePolicy(file);
}

const listOf = (file: string, key: RuleList['key'], value: unknown): RuleList | undefined =>
  Array.isArray(value)
    ? { file, key, rules: value.filter((rule): rule is Rule => rule !== null && typeof rule === 'object') }
    : undefined;

/** managed-settings.json, then the files of managed-settings.d in name order, as Claude Code merges them. */
async function managedSettingsFiles(folder: string, family: PolicyFamily): Promise<string[]> {
  const main = join(folder, 'managed-settings.json');
  if (family !== 'ClaudeCode') return [main];
  const dropIns = join(folder, 'managed-settings.d');
  const names = await readdir(dropIns).catch(() => [] as string[]);
  return [
    main,
    ...names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(dropIns, name)),
  ];
}

async function readPolicy(files: string[]): Promise<Policy> {
  const policy: Policy = { denied: [], allowed: undefined, managedOnly: false };
  for (const file of files) {
    const settings = await readJson(file);
    if (settings === undefined) continue;
    const denied = listOf(file, 'deniedMcpServers', settings.deniedMcpServers);
    const allowed = listOf(file, 'allowedMcpServers', settings.allowedMcpServers);
    if (denied) policy.denied.push(denied);
    if (allowed) policy.allowed = [...(policy.allowed ?? []), allowed];
    if (settings.allowManagedMcpServersOnly === true) policy.managedOnly = true;
  }
  return policy;
}

/** `*` stands for any run of characters; the rest is literal. */
function globMatches(pattern: string, text: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(text);
}

/** The URL as written and as a URL parser spells it (host in lower case), each with and without query and fragment. */
function urlForms(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const bare = new URL(parsed.href);
  bare.search = '';
  bare.hash = '';
  return [url, parsed.href, bare.href, bare.href.replace(/\/$/, '')];
}

/** Scheme and host are compared in lower case, as the URL parser spells them; the path keeps its case. */
const lowerHost = (pattern: string): string => pattern.replace(/^([^/]*\/\/[^/]*)/, (start) => start.toLowerCase());

interface Server {
  name: string;
  command: string[] | undefined;
  url: string | undefined;
}

function serverOf(name: string, entry: unknown): Server {
  const record = (entry !== null && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
  const url = ['url', 'serverUrl', 'httpUrl'].map((key) => record[key]).find((value) => typeof value === 'string');
  return { name, command: url === undefined ? commandLine(record) : undefined, url: url as string | undefined };
}

type RuleKind = 'serverName' | 'serverCommand' | 'serverUrl';

function matches(
  rule: Rule,
  server: Server,
  kinds: RuleKind[] = ['serverName', 'serverCommand', 'serverUrl'],
): boolean {
  if (kinds.includes('serverName') && typeof rule.serverName === 'string' && rule.serverName === server.name)
    return true;
  const command = rule.serverCommand;
  if (kinds.includes('serverCommand') && Array.isArray(command) && server.command !== undefined)
    if (command.length === server.command.length && command.every((word, i) => word === server.command![i]))
      return true;
  const pattern = rule.serverUrl;
  const url = server.url;
  return (
    kinds.includes('serverUrl') &&
    typeof pattern === 'string' &&
    url !== undefined &&
    urlForms(url).some((form) => globMatches(pattern, form) || globMatches(lowerHost(pattern), form))
  );
}

const ruleText = (list: RuleList, rule: Rule): string => `${list.key} entry ${JSON.stringify(rule)}`;

/**
 * Claude Code (as its program decides, docs/mcp.md "Policies"): with an allowlist that has serverCommand entries a
 * local server must match one of those; with serverUrl entries a remote server must match one of those; else by name.
 */
function claudeAllows(allowed: RuleList[], server: Server): boolean {
  const rules = allowed.flatMap((list) => list.rules);
  const kind: RuleKind =
    server.command !== undefined && rules.some((rule) => rule.serverCommand !== undefined)
      ? 'serverCommand'
      : server.url !== undefined && rules.some((rule) => rule.serverUrl !== undefined)
        ? 'serverUrl'
        : 'serverName';
  return rules.some((rule) => matches(rule, server, [kind]));
}

async function claudeCodeVerdict(ctx: Context, server: Server): Promise<PolicyVerdict | undefined> {
  const folder = policyFolder(ctx, 'ClaudeCode');
  const exclusive = join(folder, 'managed-mcp.json');
  if ((await readJson(exclusive)) !== undefined)
    return { file: exclusive, rule: 'managed-mcp.json gives the organization exclusive control of MCP servers' };
  const policy = await readPolicy(await managedSettingsFiles(folder, 'ClaudeCode'));
  const denial = deniedBy(policy, server);
  if (denial) return denial;
  if (policy.allowed === undefined) return undefined;
  // Without allowManagedMcpServersOnly the user's own settings can widen the allowlist (a "soft allowlist").
  const userFile = join(ctx.env.CLAUDE_CONFIG_DIR?.trim() || join(ctx.homeDir, '.claude'), 'settings.json');
  const userList = policy.managedOnly
    ? undefined
    : listOf(userFile, 'allowedMcpServers', (await readJson(userFile).catch(() => undefined))?.allowedMcpServers);
  if (claudeAllows([...policy.allowed, ...(userList ? [userList] : [])], server)) return undefined;
  return notAllowed(policy.allowed);
}

function deniedBy(policy: Policy, server: Server): PolicyVerdict | undefined {
  for (const list of policy.denied)
    for (const rule of list.rules) if (matches(rule, server)) return { file: list.file, rule: ruleText(list, rule) };
  return undefined;
}

function notAllowed(allowed: RuleList[]): PolicyVerdict {
  const empty = allowed.every((list) => list.rules.length === 0);
  return {
    file: allowed.map((list) => list.file).join(', '),
    rule: empty ? 'allowedMcpServers is empty: no server is allowed' : 'no allowedMcpServers entry matches it',
  };
}

/** Copilot (docs.github.com, "Configuring an MCP server allowlist"): a denial wins; with an allowlist, a match by name, command or URL is needed. */
async function copilotVerdict(ctx: Context, server: Server): Promise<PolicyVerdict | undefined> {
  const policy = await readPolicy(await managedSettingsFiles(policyFolder(ctx, 'GitHubCopilot'), 'GitHubCopilot'));
  const denial = deniedBy(policy, server);
  if (denial) return denial;
  if (policy.allowed === undefined) return undefined;
  return policy.allowed.some((list) => list.rules.some((rule) => matches(rule, server)))
    ? undefined
    : notAllowed(policy.allowed);
}

/**
 * Whether a policy on this machine blocks `entry` (as it is or would be written) under `name` for `client`; undefined
 * when none does. The policies named here govern every scope alike; the scope is taken for the callers' sake (sync).
 */
export async function policyVerdict(
  ctx: Context,
  client: ClientId | null,
  _scope: Scope,
  name: string,
  entry: unknown,
): Promise<PolicyVerdict | undefined> {
  // The client's row says which policy governs it (src/mcp/clients/); a client without one has none svcctl knows of.
  const family = client === null ? undefined : CLIENTS[client].managedPolicy;
  if (family === undefined) return undefined;
  const server = serverOf(name, entry);
  try {
    return family === 'ClaudeCode' ? await claudeCodeVerdict(ctx, server) : await copilotVerdict(ctx, server);
  } catch (error) {
    if (!(error instanceof UnreadablePolicy)) throw error;
    return { file: error.file, rule: `the policy file ${error.why}, so what the client allows cannot be told` };
  }
}

/** One line for a verdict: the file and the rule. */
export const describeVerdict = (name: string, verdict: PolicyVerdict): string =>
  `the policy in ${verdict.file} blocks '${name}': ${verdict.rule}`;

export const POLICY_FIX =
  "ask the administrator of this machine to allow the server (the policy decides, --force does not override it); docs/mcp.md, 'Policies'";

export interface PolicyTarget {
  client: ClientId | null;
  scope: Scope;
  name: string;
  value: unknown;
  label: string;
}

/** Before anything is written: every target a policy blocks is named, then exit 7 (a policy is not a conflict to force). */
export async function refuseBlockedEntries(ctx: Context, targets: PolicyTarget[]): Promise<void> {
  let blocked = false;
  for (const target of targets) {
    const verdict = await policyVerdict(ctx, target.client, target.scope, target.name, target.value);
    if (verdict === undefined) continue;
    blocked = true;
    ctx.out.error(`${target.label}: ${foreign(describeVerdict(target.name, verdict))}`, POLICY_FIX);
  }
  if (blocked) throw exitWith(ExitCode.UnsafeConfig);
}
