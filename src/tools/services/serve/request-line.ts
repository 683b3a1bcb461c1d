import type { ServeLogEntry } from './serve-log.js';

/**
 * What `serve` prints on stderr for each request (the log stays JSON lines): its verdict first, so a
 * person watching the terminal sees a broken rule as it happens. A contested finding is a warning.
 */
export function requestLine(entry: ServeLogEntry): string {
  const hard = entry.findings.filter((f) => !f.contested);
  const verdict = hard.length > 0 ? '✗' : entry.findings.length > 0 ? '!' : entry.status < 400 ? '✓' : '✗';
  const rules = entry.findings.map((f) => `${f.contested ? 'contested ' : ''}${f.rule}: ${f.detail ?? f.rejection}`);
  return (
    `${verdict} #${entry.seq} ${entry.method} ${entry.path} → ${entry.status} (${entry.provider}, route ${entry.route}, call ${entry.call}` +
    `${entry.client ? `, ${entry.client}` : ''})${rules.length ? ` ${rules.join('; ')}` : ''}`
  );
}

/** Counts of what serve answered, for the line it prints when it stops. */
export class ServeTally {
  private requests = 0;
  private broken = 0;
  private warned = 0;
  private readonly rules = new Map<string, number>();

  add(entry: ServeLogEntry): void {
    this.requests++;
    const hard = entry.findings.filter((f) => !f.contested);
    if (hard.length > 0 || (entry.findings.length === 0 && entry.status >= 400)) this.broken++;
    else if (entry.findings.length > 0) this.warned++;
    for (const f of hard) this.rules.set(f.rule, (this.rules.get(f.rule) ?? 0) + 1);
  }

  summary(): string {
    const rules = [...this.rules].map(([rule, n]) => `${rule} ×${n}`).join(', ');
    return (
      `${this.requests} request(s): ${this.requests - this.broken - this.warned} conform, ${this.broken} refused` +
      `${rules ? ` (${rules})` : ''}, ${this.warned} with a contested warning`
    );
  }
}
