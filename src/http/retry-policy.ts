import { MAX_RETRY_AFTER_SECONDS, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from '../core/constants.js';

/** Answers that say this address does not take the request at all: asking again cannot change them. */
export const NOT_THIS_ENDPOINT = new Set([404, 405, 501, 505]);

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && !NOT_THIS_ENDPOINT.has(status));
}

export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

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
