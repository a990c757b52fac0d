// The JSON field names are documented (docs/mcp.md, "svcctl mcp doctor") and stable.
import type { ClientId, Mode, Scope } from '../types.js';

export interface CheckResult {
  /** Stable: file, policy, entry, variables, node, runner, ca, headers, trust, initialize, tools. */
  name: string;
  ok: boolean;
  /** Never a secret value. */
  detail: string;
  fix: string | null;
  protocol?: string;
  /** Shown but not run (a VS Code input only the editor can ask for): not a pass, and counted as not run. */
  skipped?: true;
}

export interface DoctorReport {
  client: ClientId | null;
  scope: Scope;
  file: string;
  name: string;
  mode: Mode | null;
  ok: boolean;
  checks: CheckResult[];
  not_run: string[];
}

export const pass = (name: string, detail: string): CheckResult => ({ name, ok: true, detail, fix: null });
export const fail = (name: string, detail: string, fix: string): CheckResult => ({ name, ok: false, detail, fix });
export const skip = (name: string, detail: string): CheckResult => ({
  name,
  ok: true,
  detail,
  fix: null,
  skipped: true,
});
