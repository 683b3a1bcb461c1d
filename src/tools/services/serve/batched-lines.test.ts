import { describe, expect, it } from 'vitest';
import { BatchedLines } from './batched-lines.js';

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
