// Answers are read with a cap so memory stays flat whatever a server sends; past it the connection is closed.

/** A message of a few hundred characters is shown. */
export const ERROR_BODY_LIMIT = 64 * 1024;
export const SUCCESS_BODY_LIMIT = 1024 * 1024;

export function bodyLimit(status: number): number {
  return status >= 200 && status < 300 ? SUCCESS_BODY_LIMIT : ERROR_BODY_LIMIT;
}

export class CappedBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(
    private readonly limit: number,
    private readonly keep: boolean,
  ) {}

  add(chunk: Buffer): boolean {
    const room = this.limit - this.size;
    if (chunk.length > room) {
      if (this.keep && room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.truncated = true;
      return false;
    }
    this.size += chunk.length;
    if (this.keep) this.chunks.push(chunk);
    return true;
  }

  text(): string {
    if (!this.keep) return '';
    return (this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks)).toString('utf8');
  }
}
