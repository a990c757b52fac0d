/** The options of `event send` and what its paths share once resolved: their own module, so that the single, batch,
 * preview and target modules all point at it and none points back at event-send.ts. */
import type { ResolvedSecret } from '../config/secret-sources.js';
import type { EventFlags } from '../events/event-flags.js';
import type { FailedOut } from '../events/failed-out.js';

export interface EventSendOptions extends EventFlags {
  file?: string;
  raw: boolean;
  ndjson: boolean;
  concurrency: number;
  failedOut?: string;
  tokenFile?: string;
  hmacSecretFile?: string;
  retries: number;
  timeout: number;
  dryRun: boolean;
  printCurl: boolean;
  /** True when --concurrency was given on the command line. */
  concurrencyGiven?: boolean;
  /** --spool [DIR]: true without a DIR. */
  spool?: string | true;
}

/** The ingest token and the HMAC secret, read once (both join the run's known secrets as they are read). */
export interface EventCredentials {
  token: ResolvedSecret | undefined;
  secret: string | undefined;
}

/** What every path of `event send` needs, resolved once. */
export interface Resolved extends EventCredentials {
  /** As resolved: the spool keeps an event for this base URL only. */
  baseUrl: string;
  url: string;
  /** Only with --ndjson (checkCombinations rejects --failed-out without it). */
  failedOut?: FailedOut;
}
