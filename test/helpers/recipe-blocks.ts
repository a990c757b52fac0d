/**
 * The recipes of docs/events.md ("Where `event run` and `event flush` run") as the programs that run them read them:
 * a crontab's lines as cron does, a unit's `ExecStart=` as systemd splits it, a workflow step and a CronJob from
 * their YAML. Each reader is as small as the recipes need, and refuses what it does not know rather than guess.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from './cli.js';

export interface FencedBlock {
  lang: string;
  /** 1-based line of the opening fence in the page. */
  line: number;
  code: string;
}

/** The fenced blocks of a page, their indentation kept (the Actions step is indented as in a workflow file). */
export function fencedBlocks(page: string): FencedBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith(open[1]!)) end++;
    blocks.push({ lang: open[2]!, line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** Every placeholder of the recipes replaced by the test's stand-in. */
export const substitute = (code: string, stand: Record<string, string>): string =>
  Object.entries(stand).reduce((text, [from, to]) => text.replaceAll(from, to), code);

export interface Crontab {
  /** The NAME=value lines, taken literally (cron does not expand them). */
  env: Record<string, string>;
  /** The command of each job line: what follows the five time fields. */
  commands: string[];
}

export function readCrontab(code: string): Crontab {
  const env: Record<string, string> = {};
  const commands: string[] = [];
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (assignment) {
      env[assignment[1]!] = assignment[2]!;
      continue;
    }
    const job = /^(\S+\s+){5}(.+)$/.exec(line);
    if (!job) throw new Error(`not a crontab line: ${line}`);
    if (job[2]!.includes('%')) throw new Error(`a % in a cron command is a line break: ${line}`);
    commands.push(job[2]!);
  }
  return { env, commands };
}

export interface Unit {
  /** The file name, from the block's first line (`# /etc/systemd/system/NAME`). */
  name: string;
  /** `Section.Key` → its values, in order. */
  keys: Map<string, string[]>;
}

export function readUnit(code: string): Unit {
  const [first, ...rest] = code.split('\n');
  const name = /^# \/etc\/systemd\/system\/(\S+)$/.exec(first ?? '')?.[1];
  if (name === undefined) throw new Error(`a unit block starts with its path: ${first}`);
  const keys = new Map<string, string[]>();
  let section = '';
  for (const line of rest.map((l) => l.trim())) {
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const pair = /^(\w+)=(.*)$/.exec(line);
    if (!pair) throw new Error(`${name}: not a unit line: ${line}`);
    const key = `${section}.${pair[1]}`;
    keys.set(key, [...(keys.get(key) ?? []), pair[2]!]);
  }
  return { name, keys };
}

/** `Environment=NAME=value` lines (unquoted, one assignment each: all the recipes use). */
export function unitEnvironment(unit: Unit): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of unit.keys.get('Service.Environment') ?? []) {
    const pair = /^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/.exec(value);
    if (!pair) throw new Error(`${unit.name}: Environment= this reader does not know: ${value}`);
    env[pair[1]!] = pair[2]!;
  }
  return env;
}

/**
 * An `ExecStart=` line split as systemd does: words at whitespace, double quotes grouping, `%i` and `%n`
 * replaced (`%%` a literal `%`), `${NAME}` from the unit's environment. Other specifiers and `$NAME` words are
 * refused: the recipes do not use them.
 */
export function execWords(line: string, specifiers: Record<string, string>, env: Record<string, string>): string[] {
  const expand = (word: string): string =>
    word
      .replace(/%(.)/g, (_, c: string) => {
        if (c === '%') return '%';
        const value = specifiers[c];
        if (value === undefined) throw new Error(`specifier %${c} not known to the test: ${line}`);
        return value;
      })
      .replace(/\$\{(\w+)\}/g, (_, name: string) => env[name] ?? '');
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (match[2]?.includes('"')) throw new Error(`a quote inside a word: ${line}`);
    if (match[2]?.startsWith('$') && !match[2].startsWith('${')) throw new Error(`a $NAME word: ${line}`);
    words.push(expand(match[1] ?? match[2]!));
  }
  if (!words[0]?.startsWith('/')) throw new Error(`ExecStart='s program must be an absolute path: ${line}`);
  return words;
}

export interface WorkflowStep {
  name: string;
  if?: string;
  env?: Record<string, string>;
  run: string;
}

export const readSteps = (code: string): WorkflowStep[] => parse(code) as WorkflowStep[];

/** `${{ secrets.X }}` and `${{ vars.X }}` replaced by `values[X]`; any other expression is refused. */
export function evaluateExpressions(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const name = /^(?:secrets|vars)\.(\w+)$/.exec(expression)?.[1];
    const value = name === undefined ? undefined : values[name];
    if (value === undefined) throw new Error(`expression the test does not know: ${expression}`);
    return value;
  });
}

export interface Container {
  job: string;
  command: string[];
  env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>;
  mounts: string[];
}

/** The first container of each CronJob in a block of YAML documents. */
export function readCronJobs(code: string): Container[] {
  return parseAllDocuments(code).map((document) => {
    const cronJob = document.toJS() as {
      kind: string;
      metadata: { name: string };
      spec: { jobTemplate: { spec: { template: { spec: { containers: Array<Record<string, unknown>> } } } } };
    };
    if (cronJob.kind !== 'CronJob') throw new Error(`not a CronJob: ${cronJob.kind}`);
    const [container] = cronJob.spec.jobTemplate.spec.template.spec.containers;
    return {
      job: cronJob.metadata.name,
      command: container!.command as string[],
      env: container!.env as Container['env'],
      mounts: (container!.volumeMounts as Array<{ mountPath: string }>).map((mount) => mount.mountPath),
    };
  });
}

/** A container's environment: `value`, or the secret's value for `secretKeyRef`. */
export function containerEnv(
  container: Container,
  secrets: Record<string, Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of container.env) {
    const ref = entry.valueFrom?.secretKeyRef;
    const value = ref ? secrets[ref.name]?.[ref.key] : entry.value;
    if (value === undefined) throw new Error(`${container.job}: no value for ${entry.name}`);
    env[entry.name] = value;
  }
  return env;
}
