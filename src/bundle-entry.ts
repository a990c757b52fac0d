import { interruptHandled } from './core/interrupt.js';

export async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interruptHandled(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT')) return;
    process.stderr.write(`\ninterrupted (${signal})\n`);
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
  const { main } = await import('./main.js');
  process.exitCode = await main(argv, { program: { execPath: process.execPath, script: process.argv[1] } });
  // An interrupted command may leave a read of stdin or a request pending: do not wait for them.
  if (process.exitCode === 130) process.exit(130);
}
