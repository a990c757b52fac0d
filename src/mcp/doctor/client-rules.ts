// What the real client does with an entry doctor could otherwise read and connect with: it skips, refuses or
// misreads it, or passes on literally a reference it does not expand (docs/mcp.md, "svcctl mcp doctor").
import { MCP_PROXY_PACKAGE } from '../../core/constants.js';
import { variableReference } from '../render/values.js';
import { commandLine, packageName, strings } from '../service-entries.js';
import type { ClientSpec } from '../types.js';
import type { EntryPlan } from './entry-plan.js';
import { fail, type CheckResult } from './types.js';

type Entry = Record<string, unknown>;

const ENABLED_FALSE: Partial<Record<ClientSpec['format'], string>> = {
  toml: 'enabled = false',
  yaml: 'enabled: false',
};

const reinstall = (client: ClientSpec, extra = ''): string =>
  `svcctl mcp install --client ${client.id}${extra} --force`;

export function entryRuleFailure(
  client: ClientSpec | null,
  name: string,
  entry: Entry,
  plan: EntryPlan,
): CheckResult | undefined {
  // Cline `"disabled": true`, Codex `enabled = false` (also Kiro, opencode, Goose in their files).
  if (entry.disabled === true || entry.enabled === false) {
    const off = entry.disabled === true ? 'disabled' : 'enabled';
    const field =
      off === 'disabled' ? '"disabled": true' : (ENABLED_FALSE[client?.format ?? 'json'] ?? '"enabled": false');
    const hint = client?.doctor?.disabledHint ?? '';
    const where = typeof hint === 'string' ? hint : hint(off);
    return fail(
      'entry',
      `'${name}': the client has this server disabled (${field})`,
      `remove ${field} from the entry${where}`,
    );
  }
  if (client === null) return undefined;
  const typed = typeof entry.type === 'string' ? entry.type : undefined;
  const remote = plan.mode === 'remote' || (typed !== undefined && typed !== 'stdio');
  if (remote && !client.remoteInFile) {
    return fail(
      'entry',
      `'${name}' is a remote entry: ${client.label} ignores remote entries in its file; use --mode proxy`,
      `${reinstall(client, ' --mode proxy')} (mcp-remote forwards to the URL)${client.noRemote?.elsewhere === undefined ? '' : `, or ${client.noRemote.elsewhere}`}`,
    );
  }
  const failure = client.doctor?.entryRule?.(name, entry, plan.mode, (extra = '') => reinstall(client, extra));
  return failure === undefined ? undefined : fail('entry', failure.message, failure.fix);
}

// VS Code's predefined variables (Cursor has the same): ${workspaceFolder} in args is not an environment reference.
const PREDEFINED = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'userHome',
  'pathSeparator',
  'cwd',
  'file',
  'fileDirname',
  'execPath',
]);
const REFERENCE =
  /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** mcp-remote's own arguments are left out: it expands ${VAR} itself. */
function clientStrings(entry: Entry, plan: EntryPlan): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const [key, value] of Object.entries(entry))
    if (key !== 'command' && key !== 'cmd' && key !== 'args') walk(value);
  const line = commandLine(entry) ?? [];
  const proxyAt = plan.mode === 'proxy' ? line.findIndex((arg) => packageName(arg) === MCP_PROXY_PACKAGE) : -1;
  out.push(...(proxyAt < 0 ? line : line.slice(0, proxyAt + 1)));
  return out;
}

export function unexpandedReferences(client: ClientSpec, entry: Entry, plan: EntryPlan): string[] {
  const found = new Set<string>();
  // Goose fills ${VAR} in headers from the variables its entry names (env_keys) or sets (envs).
  const byName = new Set(
    Array.isArray(entry.env_keys) ? [...strings(entry.env_keys), ...Object.keys(entry.envs ?? {})] : [],
  );
  for (const text of clientStrings(entry, plan)) {
    for (const match of text.matchAll(REFERENCE)) {
      const [whole, envColon, brace, envBrace] = match;
      if (envColon !== undefined && client.variables !== 'env-colon') found.add(whole);
      if (
        brace !== undefined &&
        !byName.has(brace) &&
        client.variables !== 'dollar-brace' &&
        !(client.variables === 'env-colon' && PREDEFINED.has(brace))
      )
        found.add(whole);
      if (envBrace !== undefined && client.variables !== 'env-brace') found.add(whole);
    }
  }
  return [...found];
}

const nameOf = (reference: string): string => reference.replace(/^\$?\{(env:)?/, '').replace(/(:-[^}]*)?\}$/, '');

export function unexpandedCheck(client: ClientSpec, references: string[]): CheckResult {
  const quoted = references.map((reference) => `'${reference}'`).join(', ');
  const reaches = `${quoted} ${references.length > 1 ? 'reach' : 'reaches'} the server literally`;
  const names = references.map(nameOf);
  const syntax = client.variables;
  if (syntax !== 'none') {
    const write = (name: string): string => variableReference(syntax, name);
    return fail(
      'variables',
      `${client.label} expands only ${write('VAR')}: ${reaches}`,
      `write ${names.map(write).join(', ')} instead, or reinstall: ${reinstall(client)}`,
    );
  }
  return fail(
    'variables',
    `${client.label} expands no variable references: ${reaches}`,
    client.doctor?.unexpandedFix?.(names, reinstall(client)) ??
      `put the values in the file, or reinstall: ${reinstall(client)} (it writes them literally, or use --mode proxy, where mcp-remote expands \${VAR} in --header)`,
  );
}
