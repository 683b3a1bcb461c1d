import { describe, expect, it } from 'vitest';
import { BatchedLines } from './batched-lines.js';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { startServe } from './start-serve.js';

describe('BatchedLines', () => {
  it('writes the lines added in one turn in one write, in order, before their promises resolve', async () => {
    const writes: string[] = [];
    const lines = new BatchedLines((text) => writes.push(text));
    const first = lines.add('a\n');
    const second = lines.add('b\n');
    expect(writes).toEqual([]);
    await Promise.all([first, second]);
    expect(writes).toEqual(['a\nb\n']);
    await lines.add('c\n');
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('flush writes what is pending at once, and the batch it belonged to writes nothing more', async () => {
    const writes: string[] = [];
    const lines = new BatchedLines((text) => writes.push(text));
    const pending = lines.add('last\n');
    lines.flush();
    expect(writes).toEqual(['last\n']);
    await pending;
    expect(writes).toEqual(['last\n']);
  });
});

describe('startServe with a log that returns a promise', () => {
  it('ends the answer only once the promise settles, so the line is written before the client has its answer', async () => {
    const loaded = loadMatrixInputs({});
    let release: () => void = () => undefined;
    const written = new Promise<void>((resolve) => (release = resolve));
    let logged = 0;
    const serve = await startServe({
      port: 0,
      specs: loaded.specs,
      fixtures: loaded.fixtures,
      table: loaded.table,
      log: () => {
        logged += 1;
        return written;
      },
    });
    try {
      let answered = false;
      const response = fetch(`${serve.url}/deepseek/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'hi' }] }),
      }).then((r) => {
        answered = true;
        return r.status;
      });
      while (logged === 0) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 100));
      expect(answered).toBe(false);
      release();
      expect(await response).toBe(200);
    } finally {
      await serve.close();
    }
  });
});
