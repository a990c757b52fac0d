// Passed in, never read from globals, so every module can be driven by tests with a temp HOME and a fake environment.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { KnownSecrets } from '../redaction/known-secrets.js';
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
  deployment?: string;
  allowHttp?: boolean;
}

/** For entries that start svcctl again and dev --detach; absent when svcctl runs inside another program (tests). */
export interface RunningProgram {
  execPath: string;
  script: string | undefined;
}

export interface Deployment {
  name: string;
  baseUrl: string;
}

export type Picked =
  | { kind: 'picked'; deployment: Deployment; source: string }
  | { kind: 'ambiguous'; names: string[] }
  | { kind: 'none' };

export interface Context {
  env: NodeJS.ProcessEnv;
  cwd: string;
  homeDir: string;
  platform: NodeJS.Platform;
  /** Undefined on Windows, where files have no owner uid. */
  uid?: number;
  stdin: InputStream;
  out: Output;
  globals: GlobalOptions;
  program?: RunningProgram;
  /** Add each secret the moment it is read; `out` redacts with it. */
  secrets: KnownSecrets;
  /** Every expiry and age is measured with it, so tests can move time. */
  now(): Date;
  /** Waits `ms` before install reads its write back (confirm-entry.ts); tests with no other writer need not wait. */
  pause?: (ms: number) => Promise<void>;
  /** The OS keychain (src/auth/secret-store.ts); tests give one in memory. */
  secretStore?: SecretStore;
  deployment?: Picked;
}

/** Named secrets kept as bytes, by service and account, as an OS keychain keeps them. */
export interface SecretStore {
  read(service: string, account: string): Promise<Uint8Array | undefined>;
  write(service: string, account: string, secret: Uint8Array): Promise<void>;
  remove(service: string, account: string): Promise<boolean>;
}

export type ContextFactory = (command: CommandUnknownOpts) => Context;

export function canPrompt(ctx: Context): boolean {
  return ctx.globals.input && ctx.stdin.isTTY === true && ctx.out.interactiveStderr;
}
