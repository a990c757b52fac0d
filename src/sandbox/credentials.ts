// Secrets are compared as SHA-256 digests with timingSafeEqual, and ingest tokens found by their digest, so lookups
// leak nothing through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SandboxUser, SandboxWebhook } from './sandbox-options.js';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export class Credentials {
  private readonly users = new Map<string, SandboxUser>();
  private readonly webhooksByToken = new Map<string, SandboxWebhook>();

  constructor(users: SandboxUser[], webhooks: SandboxWebhook[]) {
    for (const user of users) this.users.set(user.email.toLowerCase(), user);
    for (const webhook of webhooks) this.webhooksByToken.set(digest(webhook.ingestToken).toString('hex'), webhook);
  }

  /** Emails are compared without case. */
  checkPassword(email: string, password: string): SandboxUser | undefined {
    const user = this.users.get(email.toLowerCase());
    // Compare even for an unknown email, so that both cases take the same time.
    const matches = secretsEqual(password, user?.password ?? '\u0000no user');
    return user && matches ? user : undefined;
  }

  webhookFor(ingestToken: string): SandboxWebhook | undefined {
    return this.webhooksByToken.get(digest(ingestToken).toString('hex'));
  }
}
