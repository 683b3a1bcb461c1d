import { appendFileSync } from 'node:fs';

/**
 * One attack class of the hardening suite: several concrete attacks, each judged on its own, so a
 * class reports "tried / handled / failed" (the closing-note table) instead of stopping at the
 * first failure. The test asserts that every attack was handled; with HARDENING_TABLE=FILE set,
 * each class also appends one JSON line with its counts, which is how the before/after table is
 * produced (`HARDENING_TABLE=/tmp/t.jsonl npx vitest run test/hardening`).
 */
export class AttackClass {
  readonly failures: string[] = [];
  private tried = 0;

  constructor(readonly id: string) {}

  /** Runs one attack; a thrown error or a failed expectation counts as "failed", with its reason. */
  async attack(name: string, fn: () => unknown | Promise<unknown>): Promise<void> {
    this.tried++;
    try {
      await fn();
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      this.failures.push(`${name}: ${why}`);
    }
  }

  /** Writes the table line and returns the failures (the test expects none). */
  done(): string[] {
    const file = process.env.HARDENING_TABLE;
    if (file)
      appendFileSync(
        file,
        JSON.stringify({
          class: this.id,
          tried: this.tried,
          handled: this.tried - this.failures.length,
          failed: this.failures.length,
          failures: this.failures,
        }) + '\n',
      );
    return this.failures;
  }
}

/** Fails with `message` unless `ok`; keeps attack bodies short and their reasons readable. */
export function must(ok: unknown, message: string): void {
  if (!ok) throw new Error(message);
}

/** A stack trace in CLI output: a line starting with "at " and naming a file position. */
export const hasStackTrace = (text: string) => /^\s+at .+:\d+:\d+\)?$/m.test(text) || /internal error/.test(text);
