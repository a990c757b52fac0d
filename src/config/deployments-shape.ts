// Unknown keys are left alone; an owned key of the wrong type is exit 7, as dropping it would point commands elsewhere.
import { parse, TomlError } from 'smol-toml';
import type { Deployment } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';

export interface DeploymentsFile {
  default?: string;
  deployments: Deployment[];
}

export interface ParsedDeployments {
  data: Record<string, unknown>;
  file: DeploymentsFile;
}

const isTable = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  if (isTable(value)) return 'a table';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number' || typeof value === 'bigint') return 'a number';
  return typeof value;
}

const quoted = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

function wrongType(path: string, key: string, expected: string, value: unknown, example: string): CliError {
  return new CliError(ExitCode.UnsafeConfig, `${path}: ${key} must be ${expected}, not ${typeName(value)}`, {
    hint: `fix it by hand (e.g. ${example}) or remove it; svcctl neither uses nor rewrites a file it cannot understand`,
  });
}

function parseText(text: string, path: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? `:${error.line}:${error.column}` : '';
    const reason = (error as Error).message.split('\n')[0]?.replace(/^Invalid TOML document:\s*/, '') ?? 'invalid TOML';
    throw new CliError(ExitCode.UnsafeConfig, `${path}${where}: not valid TOML (${reason})`, {
      hint: 'fix it by hand, or delete it and log in again with --save',
    });
  }
}

export function parseDeployments(text: string, path: string): ParsedDeployments {
  const data = parseText(text, path);
  const file: DeploymentsFile = { deployments: [] };
  if (data.default !== undefined) {
    if (typeof data.default !== 'string')
      throw wrongType(
        path,
        'default',
        'a string (the name of a deployment)',
        data.default,
        'default = "acme.example.com"',
      );
    file.default = data.default;
  }
  const table = data.deployments ?? {};
  if (!isTable(table))
    throw wrongType(
      path,
      'deployments',
      'a table of deployments',
      table,
      '[deployments."acme.example.com"] with base_url = "https://acme.example.com/api"',
    );
  for (const [name, value] of Object.entries(table)) {
    const key = `deployments.${quoted(name)}`;
    const example = `[${key}] with base_url = "https://acme.example.com/api"`;
    if (!isTable(value)) throw wrongType(path, key, 'a table with a base_url', value, example);
    if (value.base_url === undefined) {
      throw new CliError(ExitCode.UnsafeConfig, `${path}: ${key} has no base_url`, {
        hint: `add one (e.g. ${example}) or remove the deployment; svcctl neither uses nor rewrites a file it cannot understand`,
      });
    }
    if (typeof value.base_url !== 'string')
      throw wrongType(
        path,
        `${key}.base_url`,
        'a string (the API base URL)',
        value.base_url,
        'base_url = "https://acme.example.com/api"',
      );
    file.deployments.push({ name, baseUrl: value.base_url });
  }
  return { data, file };
}
