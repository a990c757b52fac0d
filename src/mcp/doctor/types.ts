/**
 * What `svcctl mcp doctor` reports: the entry it checked and one result per
 * check. The JSON field names (client, scope, file, name, mode, ok, checks,
 * not_run, and name/ok/detail/fix per check) are documented in the README and stable.
 */
import type { ClientId, Mode, Scope } from '../types.js';

export interface CheckResult {
  /** Stable identifier: file, entry, variables, node, runner, headers, trust, initialize, tools. */
  name: string;
  ok: boolean;
  /** What was found, for people; never a secret value. */
  detail: string;
  /** What to do when the check failed; null when it passed. */
  fix: string | null;
  /** initialize of a remote URL: the MCP revision the server answered in (2025-11-25, 2026-07-28). */
  protocol?: string;
}

export interface DoctorReport {
  /** The client whose file holds the entry; null for a generic --config file. */
  client: ClientId | null;
  scope: Scope;
  file: string;
  name: string;
  /** null when the file does not parse (the entry could not be read). */
  mode: Mode | null;
  ok: boolean;
  /** The checks that were run, in order. */
  checks: CheckResult[];
  /** Names of the checks of this mode that were not run because an earlier one failed. */
  not_run: string[];
}

export const pass = (name: string, detail: string): CheckResult => ({ name, ok: true, detail, fix: null });
export const fail = (name: string, detail: string, fix: string): CheckResult => ({ name, ok: false, detail, fix });
