/**
 * Entry point of the svcctl executable. `--version` is answered before
 * anything else is loaded; every other command loads the program lazily.
 */
import { VERSION } from './version.js';

export async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\ninterrupted (${signal})\n`);
    process.exit(signal === 'SIGINT' ? 130 : 128 + 15);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // `svcctl … | head` closes stdout early: stop quietly, as other tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const { main } = await import('./top-level.js');
  process.exitCode = await main(argv);
}
