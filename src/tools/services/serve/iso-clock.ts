/**
 * The time of a log line as an ISO 8601 string, made once per millisecond: under load serve logs many lines in the same
 * millisecond, and formatting a Date costs more than the rest of the line's fields together.
 */
export class IsoClock {
  private last = Number.NaN;
  private text = '';

  constructor(private readonly nowMs: () => number = Date.now) {}

  now(): string {
    const ms = this.nowMs();
    if (ms !== this.last) {
      this.last = ms;
      this.text = new Date(ms).toISOString();
    }
    return this.text;
  }
}
