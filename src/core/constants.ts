/**
 * Names and constants of the command-line contract (section 0). Every other
 * module takes these from here, so a rename happens in one place.
 */
export const CLI_NAME = 'svcctl';

/** Environment variable prefixes: the current one wins over the legacy one. */
export const ENV_PREFIX = 'SERVICE_';
export const LEGACY_ENV_PREFIX = 'SVC_';

/** Suffixes of the variables svcctl reads (each under both prefixes). */
export const SETTING_NAMES = [
  'BASE_URL',
  'MCP_URL',
  'EMAIL',
  'PASSWORD',
  'ACCESS_TOKEN',
  'INGEST_TOKEN',
  'HMAC_SECRET',
  'SPOOL_DIR',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];


/** Remote MCP headers: current names, legacy names, and the bearer header. */
export const HEADER_EMAIL = 'X-Service-Email';
export const HEADER_PASSWORD = 'X-Service-Password';
export const LEGACY_HEADER_EMAIL = 'X-Svc-Email';
export const LEGACY_HEADER_PASSWORD = 'X-Svc-Password';
export const HEADER_AUTHORIZATION = 'Authorization';

/** Event ingestion. */
export const SIGNATURE_HEADER = 'X-Hub-Signature-256';
export const SIGNATURE_PREFIX = 'sha256=';
export const EVENT_PATH = '/v1/event';
export const LOGIN_PATH = '/v1/user/login';

/** Packages and runner used in MCP client configurations. */
export const MCP_SERVER_PACKAGE = 'service-mcp-server';
export const MCP_PROXY_PACKAGE = 'mcp-remote';
export const PACKAGE_RUNNER = 'npx';
export const PACKAGE_RUNNER_YES_FLAG = '-y';
export const DEFAULT_SERVER_NAME = 'service';

/** Credentials file (login --save), under $XDG_CONFIG_HOME/svcctl/. */
export const CONFIG_DIR_NAME = 'svcctl';
export const CREDENTIALS_FILE_NAME = 'credentials.json';

/** Defaults of `event send`. */
export const DEFAULT_RETRIES = 4;
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_CONCURRENCY = 8;
export const MAX_RETRY_AFTER_SECONDS = 60;
/** Exponential backoff with full jitter: attempt n waits random(0, min(cap, base * 2^n)). */
export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 10_000;

/** How much of a service's error body is shown in an error message. */
export const MAX_SHOWN_BODY_CHARS = 300;

/** Defaults of `svcctl dev` (the local sandbox). */
export const DEV_DEFAULT_TOKEN_TTL_SECONDS = 3600;
export const DEV_DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The hidden flag that makes `svcctl dev` the background process of `dev --detach` (src/dev/detach.ts). */
export const DEV_DETACHED_CHILD_FLAG = '--detached-child';

/** What `svcctl dev --protocol` accepts: the MCP revisions its /mcp serves. */
export const MCP_PROTOCOL_CHOICES = ['both', '2025-11-25', '2026-07-28'] as const;
export type McpProtocolChoice = (typeof MCP_PROTOCOL_CHOICES)[number];
