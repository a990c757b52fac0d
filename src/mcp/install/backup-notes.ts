/** The `backup:` lines of one write run, each said once the run is done with its file: a later removal in the same run
 * (uninstall --all emptying a file svcctl created) may remove that backup again, and a line naming a file that is gone
 * would not be true. */
export class BackupNotes {
  private held: { file: string; backup: string } | undefined;

  constructor(private readonly say: (line: string) => void) {}

  /** Before a change to `file`: the held line of another file is said. */
  next(file: string): void {
    if (this.held !== undefined && this.held.file !== file) this.release();
  }

  hold(file: string, backup: string): void {
    this.release();
    this.held = { file, backup };
  }

  /** The file went, and with it this backup (or none): it is not named. */
  removed(backup: string | null): void {
    if (this.held?.backup === backup) this.held = undefined;
  }

  release(): void {
    if (this.held !== undefined) this.say(`  backup: ${this.held.backup}`);
    this.held = undefined;
  }
}
