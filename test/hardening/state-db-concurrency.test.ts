/**
 * Two processes writing one state.db at the same moment (WAL + busy timeout): every exchange of
 * both survives whole and in its writer's order, in their own sessions and in one they share, and
 * no SQLITE_BUSY reaches either writer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/engine/session/session-store.js';
import { writerExchange } from './state-db-writer-child.test-helper.js';

const child = fileURLToPath(new URL('./state-db-writer-child.test-helper.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rr-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COUNT = 120;

interface Writer {
  proc: ChildProcess;
  ready: Promise<number>;
  exit: Promise<{ code: number | null; stderr: string }>;
}

function startWriter(file: string, who: string, shared: number): Writer {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, file, who, String(shared), String(COUNT)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const ready = new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /ready (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    proc.on('exit', (code) => reject(new Error(`${who} exited ${code} before it was ready: ${stderr}`)));
  });
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    proc.on('exit', (code) => resolve({ code, stderr })),
  );
  return { proc, ready, exit };
}

describe('two processes writing one state.db', () => {
  it('keeps every exchange of both, whole and in order, without SQLITE_BUSY', async () => {
    const file = join(dir, 'state.db');
    const setup = SessionStore.open(file);
    const shared = setup.createSession({ title: 'shared' });
    setup.close();

    const writers = { a: startWriter(file, 'a', shared), b: startWriter(file, 'b', shared) };
    const own = { a: await writers.a.ready, b: await writers.b.ready };
    // Both start writing at once.
    writers.a.proc.stdin!.write('go\n');
    writers.b.proc.stdin!.write('go\n');
    const exits = await Promise.all([writers.a.exit, writers.b.exit]);
    expect(exits.map((e) => e.stderr)).toEqual(['', '']);
    expect(exits.map((e) => e.code)).toEqual([0, 0]);

    const store = SessionStore.open(file);
    const odd = Array.from({ length: COUNT }, (_, i) => i + 1).filter((n) => n % 2 === 1);
    const even = Array.from({ length: COUNT }, (_, i) => i + 1).filter((n) => n % 2 === 0);
    for (const who of ['a', 'b'] as const) {
      expect(store.resume(own[who]).history.messages).toEqual(odd.flatMap((n) => writerExchange(who, n)));
    }
    // The shared session interleaves the two writers exchange by exchange, never message by message.
    const sharedMessages = store.resume(shared).history.messages;
    expect(sharedMessages).toHaveLength(even.length * 2 * 3);
    const exchanges = Array.from({ length: sharedMessages.length / 3 }, (_, i) =>
      sharedMessages.slice(i * 3, i * 3 + 3),
    );
    for (const who of ['a', 'b'] as const) {
      const mine = exchanges.filter((ex) => (ex[0]!.content as string).startsWith(`${who} asks`));
      expect(mine).toEqual(even.map((n) => writerExchange(who, n)));
    }
    const summary = store.get(shared);
    expect(summary.turnCount).toBe(sharedMessages.length);
    expect(summary.exchangeCount).toBe(even.length * 2);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    store.close();
  });
});
