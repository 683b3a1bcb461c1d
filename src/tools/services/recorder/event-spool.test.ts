import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import { FileSpool, MemorySpool, removeStaleSpoolDirs, SpoolDir, type StreamSpool } from './event-spool.js';
import { StreamCutError } from '../../../shared/errors/stream-cut-error.js';

const anEvent = fc.record(
  {
    event: fc.stringMatching(/^[a-z_.]{1,12}$/),
    data: fc.string({ minLength: 1, maxLength: 3000, unit: 'grapheme' }).filter((s) => !s.includes('\r')),
  },
  { requiredKeys: ['data'] },
);

/** The SSE text of `events`, cut into chunks at `cuts` (bytes, so multi-byte characters get split too). */
function chunked(events: Array<{ event?: string; data: string }>, cuts: number[]): Uint8Array[] {
  const bytes = Buffer.from(formatSse(events));
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) out.push(bytes.subarray(at, p));
    at = p;
  }
  return out;
}

const fileSpool = () => new FileSpool(join(mkdtempSync(join(tmpdir(), 'rr-spool-')), 'e.spool'));

describe.each([
  ['FileSpool', fileSpool],
  ['MemorySpool', () => new MemorySpool()],
] as Array<[string, () => StreamSpool]>)('%s', (_name, make) => {
  test('gives back the events however the body was chunked, each timed by the chunk that closed it, any number of times', () => {
    fc.assert(
      fc.property(fc.array(anEvent, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 30 }), (events, cuts) => {
        const spool = make();
        const chunks = chunked(events, cuts);
        chunks.forEach((c, i) => spool.append(c, i * 10));
        expect(spool.chunks).toBe(chunks.length);
        const read = [...spool];
        expect(read.map(({ event, data }) => (event === undefined ? { data } : { event, data }))).toEqual(events);
        const times = read.map((e) => e.atMs!);
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(times.every((t) => t % 10 === 0 && t < chunks.length * 10)).toBe(true);
        if (read.length > 0) expect(read.at(-1)!.atMs).toBe((chunks.length - 1) * 10);
        expect([...spool]).toEqual(read);
      }),
      { numRuns: 40 },
    );
  });

  it('throws StreamCutError when the body ends inside an event', () => {
    const spool = make();
    spool.append(Buffer.from('data: one\n\ndata: {"half":'), 0);
    expect(() => [...spool]).toThrow(StreamCutError);
  });
});

describe('spool folders', () => {
  it('are removed on dispose, and a dead recorder’s folder is removed by the next one', () => {
    const root = mkdtempSync(join(tmpdir(), 'rr-spool-root-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(join(root, `reasoning-replay-record-${dead}-abc`));
    mkdirSync(join(root, `reasoning-replay-record-${process.pid}-live`));
    const spools = new SpoolDir(root);
    expect(existsSync(join(root, `reasoning-replay-record-${dead}-abc`))).toBe(false);
    expect(existsSync(join(root, `reasoning-replay-record-${process.pid}-live`))).toBe(true);
    spools.create().append(Buffer.from('data: x\n\n'), 0);
    spools.dispose();
    expect(existsSync(spools.dir)).toBe(false);
    expect(removeStaleSpoolDirs(root)).toEqual([]);
  });
});
