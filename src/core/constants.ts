export const CLI_NAME = 'svcctl';

export const ENV_PREFIX = 'SERVICE_';
export const LEGACY_ENV_PREFIX = 'SVC_';

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

export const HEADER_EMAIL = 'X-Service-Email';
export const HEADER_PASSWORD = 'X-Service-Password';
export const LEGACY_HEADER_EMAIL = 'X-Svc-Email';
export const LEGACY_HEADER_PASSWORD = 'X-Svc-Password';
export const HEADER_AUTHORIZATION = 'Authorization';

export const SIGNATURE_HEADER = 'X-Hub-Signature-256';
export const SIGNATURE_PREFIX = 'sha256=';
export const EVENT_PATH = '/v1/event';
export const LOGIN_PATH = '/v1/user/login';

export const MCP_SERVER_PACKAGE = 'service-mcp-server';
export const MCP_PROXY_PACKAGE = 'mcp-remote';
export const PACKAGE_RUNNER = 'npx';
export const PACKAGE_RUNNER_YES_FLAG = '-y';
export const DEFAULT_SERVER_NAME = 'service';

export const CONFIG_DIR_NAME = 'svcctl';
export const CREDENTIALS_FILE_NAME = 'credentials.json';

export const DEFAULT_RETRIES = 4;
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_CONCURRENCY = 8;
export const MAX_RETRY_AFTER_SECONDS = 60;
/** Exponential backoff with full jitter: attempt n waits random(0, min(cap, base * 2^n)). */
export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 10_000;

export const MAX_SHOWN_BODY_CHARS = 300;

export const DEV_DEFAULT_TOKEN_TTL_SECONDS = 3600;
export const DEV_DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Hidden: makes `svcctl dev` the background process of `dev --detach`. */
export const DEV_DETACHED_CHILD_FLAG = '--detached-child';

/** What `svcctl dev --protocol` accepts: the MCP revisions its /mcp serves. */
export const MCP_PROTOCOL_CHOICES = ['both', '2025-11-25', '2026-07-28'] as const;
export type McpProtocolChoice = (typeof MCP_PROTOCOL_CHOICES)[number];
