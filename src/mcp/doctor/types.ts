/**
 * What `svcctl mcp doctor` reports: the entry it checked and one result per
 * check. The JSON field names (client, scope, file, name, mode, ok, checks,
 * and name/ok/detail/fix per check) are documented in the README and stable.
 */
import type { ClientId, Mode, Scope } from '../types.js';

export interface CheckResult {
  /** Stable identifier: file, entry, variables, node, runner, initialize, tools. */
  name: string;
  ok: boolean;
  /** What was found, for people; never a secret value. */
  detail: string;
  /** What to do when the check failed; null when it passed. */
  fix: string | null;
}

export interface DoctorReport {
  /** The client whose file holds the entry; null for a generic --config file. */
  client: ClientId | null;
  scope: Scope;
  file: string;
  name: string;
  mode: Mode;
  ok: boolean;
  checks: CheckResult[];
}

export const pass = (name: string, detail: string): CheckResult => ({ name, ok: true, detail, fix: null });
export const fail = (name: string, detail: string, fix: string): CheckResult => ({ name, ok: false, detail, fix });
