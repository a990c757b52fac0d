import { usageError } from '../../core/errors.js';
import { commandLine, shellFor, type Arg } from '../render/shell-quote.js';
import type { ClientAddCommand, EntryRequest, Scope } from '../types.js';

export type ClientCommand = ClientAddCommand;

export type Entry = Record<string, unknown>;

export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export const record = (value: unknown): Record<string, string> =>
  value !== null && typeof value === 'object' ? (value as Record<string, string>) : {};

export const pairs = (value: unknown, separator: string): string[] =>
  Object.entries(value !== null && typeof value === 'object' ? (value as Record<string, string>) : {}).map(
    ([key, item]) => `${key}${separator}${item}`,
  );

export const line = (request: EntryRequest, argv: Arg[], notes: string[] = []): ClientAddCommand => ({
  command: commandLine(argv, shellFor(request)),
  links: [],
  notes,
});

export function onlyScopes(program: string, client: string, request: EntryRequest, scopes: readonly Scope[]): void {
  if (!scopes.includes(request.scope)) {
    throw usageError(
      `\`${program} mcp add\` has no ${request.scope} scope`,
      `use svcctl mcp install --client ${client} --scope ${request.scope}`,
    );
  }
}
