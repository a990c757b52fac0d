// Never a secret: the query string is dropped, no header or body is logged, and the handlers write notes from
// names and ids only.
import type { IncomingMessage } from 'node:http';
import { neutralizeControls } from '../core/output.js';
import type { LoggedResponse } from './http-io.js';

export function logWhenDone(
  req: IncomingMessage,
  res: LoggedResponse,
  log: ((line: string) => void) | undefined,
): void {
  if (!log) return;
  const started = performance.now();
  const path = (req.url ?? '').split('?')[0];
  let written = false;
  const write = (status: number | string): void => {
    if (written) return;
    written = true;
    const ms = performance.now() - started;
    // A note may quote what a client sent: one line, no terminal escapes.
    const note = res.note ? `  ${neutralizeControls(res.note.replace(/[\r\n]+/g, ' '))}` : '';
    log(`${new Date().toISOString()} ${req.method} ${neutralizeControls(path)} ${status} ${ms.toFixed(1)}ms${note}`);
  };
  res.once('finish', () => write(res.statusCode));
  // A client that goes away before the answer (or an SSE stream that is closed).
  res.once('close', () =>
    write(res.writableFinished ? res.statusCode : `${res.headersSent ? res.statusCode : '-'} (closed)`),
  );
}
