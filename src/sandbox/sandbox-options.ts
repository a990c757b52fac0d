// Secrets are random, never fixed in the code: nothing to leak or reuse across machines. `svcctl dev` keeps the webhooks'
// between its own runs (kept-secrets.ts), so the files recipes read stay valid.
import { randomBytes } from 'node:crypto';
import {
  DEV_DEFAULT_MAX_BODY_BYTES,
  DEV_DEFAULT_TOKEN_TTL_SECONDS,
  type McpProtocolChoice,
} from '../core/constants.js';
import { usageError } from '../core/errors.js';

export interface SandboxUser {
  email: string;
  password: string;
}

export interface SandboxWebhook {
  name: string;
  ingestToken: string;
  /** Undefined: requests to this connection need no signature. */
  hmacSecret?: string;
}

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  users?: SandboxUser[];
  webhooks?: SandboxWebhook[];
  tokenTtlSeconds?: number;
  /** A function names the file by the port listened on. */
  eventsFile?: string | ((port: number) => string);
  maxBodyBytes?: number;
  log?: (line: string) => void;
  /** Default: the sandbox's own origin. */
  trustedIssuers?: string[];
  /** A request not wholly arrived by then is answered 408 and closed. */
  requestTimeoutMs?: number;
  /** The same for its headers (at most requestTimeoutMs). */
  headersTimeoutMs?: number;
  maxConnections?: number;
  mcpSessionsPerUser?: number;
  mcpSessionsTotal?: number;
  oneSessionPerUser?: boolean;
  protocol?: McpProtocolChoice;
  now?: () => Date;
}

export const DEFAULT_TOKEN_TTL_SECONDS = DEV_DEFAULT_TOKEN_TTL_SECONDS;
export const DEFAULT_MAX_BODY_BYTES = DEV_DEFAULT_MAX_BODY_BYTES;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 2_000;
export const DEFAULT_MAX_CONNECTIONS = 256;
export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_WEBHOOK_NAME = 'demo';

export function randomSecret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

const EMAIL_PATTERN = /^[^\s@:]+@[^\s@:]+$/;
const WEBHOOK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `--user email` gets a random password, which keeps it out of the process list. */
export function parseUserFlag(value: string): SandboxUser {
  const colon = value.indexOf(':');
  const email = colon === -1 ? value : value.slice(0, colon);
  const password = colon === -1 ? randomSecret('pw_', 12) : value.slice(colon + 1);
  if (!EMAIL_PATTERN.test(email))
    throw usageError(
      `--user: '${email}' is not an email address`,
      'use --user <email>:<password>, or --user <email> for a random password',
    );
  if (password === '')
    throw usageError(`--user ${email}: the password after ':' is empty`, 'leave out the colon for a random password');
  return { email, password };
}

export function parseWebhookFlag(value: string): SandboxWebhook {
  const colon = value.indexOf(':');
  const name = colon === -1 ? value : value.slice(0, colon);
  if (!WEBHOOK_NAME_PATTERN.test(name)) {
    throw usageError(
      `--webhook: '${name}' is not a valid name`,
      'letters, digits, ".", "_" and "-" (up to 64), e.g. --webhook alerts:my-secret',
    );
  }
  const webhook: SandboxWebhook = { name, ingestToken: randomSecret('ing_') };
  if (colon !== -1) {
    const secret = value.slice(colon + 1);
    if (secret === '')
      throw usageError(
        `--webhook ${name}: the HMAC secret after ':' is empty`,
        'leave out the colon for a connection without a secret',
      );
    webhook.hmacSecret = secret;
  }
  return webhook;
}

function rejectDuplicates(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    const key = value.toLowerCase();
    if (seen.has(key)) throw usageError(`${what} '${value}' is given twice`);
    seen.add(key);
  }
}

export function withDemoDefaults(
  users: SandboxUser[],
  webhooks: SandboxWebhook[],
): { users: SandboxUser[]; webhooks: SandboxWebhook[] } {
  rejectDuplicates(
    users.map((u) => u.email),
    '--user',
  );
  rejectDuplicates(
    webhooks.map((w) => w.name),
    '--webhook',
  );
  return {
    users: users.length > 0 ? users : [{ email: DEMO_EMAIL, password: randomSecret('pw_', 12) }],
    webhooks:
      webhooks.length > 0
        ? webhooks
        : [{ name: DEMO_WEBHOOK_NAME, ingestToken: randomSecret('ing_'), hmacSecret: randomSecret('whsec_') }],
  };
}
