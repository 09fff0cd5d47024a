/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
export class TerminalProgress {
  private lastLine = '';

  constructor(
    private readonly label: string,
    private readonly enabled = Boolean(process.stderr.isTTY),
  ) {}

  update(phase: string, fraction: number): void {
    if (!this.enabled) return;
    const width = 30;
    const clamped = Math.max(0, Math.min(1, fraction));
    const filled = Math.round(clamped * width);
    const line = `${this.label} ${phase.padEnd(8)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(clamped * 100)}%`;
    if (line === this.lastLine) return;
    this.lastLine = line;
    process.stderr.write(`\r${line}`);
  }

  done(message?: string): void {
    if (!this.enabled || (!this.lastLine && !message)) return;
    process.stderr.write(`\r\x1b[K${message ? `${this.label} ${message}\n` : ''}`);
    this.lastLine = '';
  }
}
