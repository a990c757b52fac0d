/** What `event flush` leaves in the spool on purpose: events for other base URLs, and those of an earlier svcctl. */
import type { Context } from '../core/context.js';
import type { OtherTarget } from '../events/spool-targets.js';

export interface LeftBehind {
  elsewhere: OtherTarget[];
  /** Files of an earlier svcctl (DIR/<id>.json), which recorded no base URL; not sent. */
  legacy: number;
}

export const leftCount = (left: LeftBehind): number =>
  left.elsewhere.reduce((sum, other) => sum + other.events, 0) + left.legacy;

const where = (other: OtherTarget): string =>
  other.baseUrl === undefined
    ? `${other.events} in ${other.folder} (base URL not recorded)`
    : `${other.events} for ${other.baseUrl}`;

export function reportLeft(ctx: Context, left: LeftBehind, baseUrl: string, spoolFlag: string | undefined): void {
  const spool = spoolFlag === undefined ? '' : ` --spool ${spoolFlag}`;
  const { elsewhere } = left;
  if (elsewhere.length > 0) {
    const total = elsewhere.reduce((sum, other) => sum + other.events, 0);
    const known = elsewhere.filter((other) => other.baseUrl !== undefined);
    const url = known.length === 1 && elsewhere.length === 1 ? known[0]!.baseUrl! : '<url>';
    ctx.out.warn(
      `kept ${total} event(s) spooled for another base URL than ${baseUrl}: ${elsewhere.map(where).join(', ')}; ` +
        `flush them with 'svcctl event flush --base-url ${url}${spool}' and that deployment's ingest token and HMAC secret`,
    );
  }
  if (left.legacy > 0) {
    ctx.out.warn(
      `kept ${left.legacy} event(s) spooled by an earlier svcctl, which did not record their base URL: ` +
        `if they are for ${baseUrl}, run this flush again with --legacy-to-current`,
    );
  }
}
