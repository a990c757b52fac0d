/**
 * When and how long to wait before a retry: connection errors, timeouts, 408,
 * 425, 429 and 5xx are retried, with exponential backoff and full jitter; a
 * Retry-After header (seconds or an HTTP date) is honoured up to a cap.
 */
import { MAX_RETRY_AFTER_SECONDS, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from '../core/constants.js';

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Full jitter: a random wait between 0 and min(cap, base * 2^retryIndex). */
export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

/** Milliseconds a Retry-After value asks for, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  const cap = MAX_RETRY_AFTER_SECONDS * 1000;
  if (/^\s*\d+\s*$/.test(text)) return Math.min(Number(text) * 1000, cap);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), cap);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
