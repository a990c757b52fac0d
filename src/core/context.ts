/**
 * What a command needs from the outside world, passed in rather than read from
 * globals, so that every module can be driven by tests with a temp HOME and a
 * fake environment.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { KnownSecrets } from '../secrets/known-secrets.js';
import type { Output } from './output.js';

export interface InputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  input: boolean;
  baseUrl?: string;
  mcpUrl?: string;
  /** --deployment NAME: a deployment saved in config.toml (src/config/deployments-file.ts). */
  deployment?: string;
  /** --allow-http: credentials may go over plain http to a host other than loopback (src/config/plain-http.ts). */
  allowHttp?: boolean;
}

/**
 * How this svcctl was started: the Node.js executable and the script it runs
 * (bin/svcctl.js of a clone, a global install or npx's cache). Entries that
 * must start svcctl again (`mcp install --token helper`) and `dev --detach`
 * use it; undefined when svcctl runs inside another program (tests).
 */
export interface RunningProgram {
  execPath: string;
  script: string | undefined;
}

/** A deployment saved in config.toml (src/config/deployments-file.ts). */
export interface Deployment {
  name: string;
  baseUrl: string;
}

/** The deployment a command uses when no flag or variable names a base URL, and why. */
export type Picked =
  | { kind: 'picked'; deployment: Deployment; source: string }
  | { kind: 'ambiguous'; names: string[] }
  | { kind: 'none' };

export interface Context {
  env: NodeJS.ProcessEnv;
  cwd: string;
  homeDir: string;
  platform: NodeJS.Platform;
  /** The user running svcctl (process.getuid()); undefined on Windows, where files have no owner uid. */
  uid?: number;
  stdin: InputStream;
  out: Output;
  globals: GlobalOptions;
  program?: RunningProgram;
  /** Every secret value this run has read: add each one as it is read (known-secrets.ts); `out` redacts with it. */
  secrets: KnownSecrets;
  /** The current time: every expiry and age is measured with it, so tests can move time. */
  now(): Date;
  /** The saved deployment this run uses when no flag or variable names a base URL (read before the command runs). */
  deployment?: Picked;
}

/** Builds the context of an action from the parsed global options (program.ts makes it; the register* files take it). */
export type ContextFactory = (command: CommandUnknownOpts) => Context;

/** Prompts are allowed only when stdin and stderr are terminals and --no-input was not given. */
export function canPrompt(ctx: Context): boolean {
  return ctx.globals.input && ctx.stdin.isTTY === true && ctx.out.interactiveStderr;
}
