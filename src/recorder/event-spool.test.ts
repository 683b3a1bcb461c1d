import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { FileSpool, removeStaleSpoolDirs, SpoolDir } from './event-spool.js';

const anEvent = fc.record({ event: fc.string({ maxLength: 8 }), data: fc.string({ unit: 'binary', maxLength: 3000 }), atMs: fc.nat() }, { requiredKeys: ['data'] });

describe('FileSpool', () => {
  test.prop([fc.array(anEvent, { maxLength: 200 })], { numRuns: 30 })('gives back the events it was given, in order, any number of times', (events) => {
    const spool = new FileSpool(join(mkdtempSync(join(tmpdir(), 'rr-spool-')), 'e.jsonl'));
    events.forEach((e) => spool.append(e));
    expect(spool.count).toBe(events.length);
    expect([...spool]).toEqual(events);
    expect([...spool.events()]).toEqual(events);
    spool.close();
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
    spools.create().append({ data: 'x' });
    spools.dispose();
    expect(existsSync(spools.dir)).toBe(false);
    expect(removeStaleSpoolDirs(root)).toEqual([]);
  });
});
