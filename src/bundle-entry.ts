import type { InterruptSignal } from './core/interrupt.js';

/** homeDir: as bin/svcctl.js found it (undefined: the program asks node:os). */
export async function run(homeDir?: string): Promise<void> {
  const argv = process.argv.slice(2);
  // Until the program is loaded, no command can have asked to wind down first. Taken from main.js rather than
  // imported here: a module both this entry and the program import would be a file of its own on every start.
  let interruptHandled: (signal: InterruptSignal) => boolean = () => false;
  let blockedInRead: () => boolean = () => false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interruptHandled(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT')) return;
    process.stderr.write(`\ninterrupted (${signal})\n`);
    // Node's exit joins the thread-pool thread an open of a pipe still holds: the signal's own default ends svcctl
    // at once, and a shell sees the same 128 + signal number.
    if (blockedInRead()) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(signal === 'SIGINT' ? 130 : 128 + 15);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `svcctl … | head` closes stdout early: the work goes on, later output is dropped, the exit code is the work's.
  const closedPipe = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') throw error;
  };
  process.stdout.on('error', closedPipe);
  process.stderr.on('error', closedPipe);
  const program = await import('./main.js');
  interruptHandled = program.interruptHandled;
  blockedInRead = program.blockedInRead;
  const given = {
    program: { execPath: process.execPath, script: process.argv[1] },
    ...(homeDir === undefined ? {} : { homeDir }),
  };
  process.exitCode = await program.main(argv, given);
  // An interrupted command may leave a read of stdin or a request pending: do not wait for them.
  if (process.exitCode === 130) process.exit(130);
}
