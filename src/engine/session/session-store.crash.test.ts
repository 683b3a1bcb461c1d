import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { EXCHANGE_SIZE, exchangeMessages } from './write-exchanges-child.test-helper.js';

const child = fileURLToPath(new URL('./write-exchanges-child.test-helper.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rr-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer, lets it commit at least one exchange, then SIGKILLs it after `delayMs`. */
function runAndKill(file: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    proc.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) setTimeout(() => proc.kill('SIGKILL'), delayMs);
    });
    proc.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
}

describe('a writer killed mid-exchange', () => {
  it('leaves only whole exchanges, counters in step with the rows', async () => {
    const file = join(dir, 'state.db');
    for (const delay of [0, 5, 20, 50]) await runAndKill(file, delay);

    const store = SessionStore.open(file);
    const sessions = store.list();
    expect(sessions).toHaveLength(4);
    for (const session of sessions) {
      const rows = store.db
        .prepare('SELECT exchange, count(*) AS n FROM turns WHERE session_id = ? GROUP BY exchange ORDER BY exchange')
        .all(session.id) as { exchange: number; n: number }[];
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.every((r) => r.n === EXCHANGE_SIZE)).toBe(true);
      expect(rows.map((r) => r.exchange)).toEqual(rows.map((_, i) => i + 1));
      expect(session.turnCount).toBe(rows.length * EXCHANGE_SIZE);
      expect(session.exchangeCount).toBe(rows.length);
      const history = store.resume(session.id).history;
      expect(history.messages).toEqual(rows.flatMap((r) => exchangeMessages(r.exchange)));
    }
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    store.close();
  });
});
