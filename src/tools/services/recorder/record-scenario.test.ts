import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileWriteError } from '../../../shared/errors/file-write-error.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { defaultScenariosDir, loadScenarios } from '../../../shared/scenarios/load-scenarios.js';
import { SpoolDir } from './event-spool.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.test-helper.js';
import { resolveLiveTarget } from './live-target.js';
import { recordScenario } from './record-scenario.js';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Issue 27: when the spool folder (TMPDIR) filled up mid-stream, `record` printed "the answer was
 * not read to its end" and then hung on the provider's open connection. A full disk is simulated
 * through the spool's write seam: the recording fails at once with a FileWriteError (exit 2, one
 * line) that says the spool folder is full, nothing is written, and the spool folder is removed.
 */
describe('recordScenario with a spool folder that fills up', () => {
  // A short stream stays in the spool's first batch until it is read back; a long one (over 256 kB)
  // is written while it flows, which is where the recording hung.
  it.each([
    ['when the spool is read back', 20],
    ['while the stream flows', 6000],
  ])('fails with a disk-full error naming the spool folder, and writes nothing (%s)', async (_when, extraDeltas) => {
    server = await startFakeProvider({ tier: 'must-echo', extraDeltas });
    const table = loadRouteTable(defaultRoutesFile());
    const scenario = loadScenarios(defaultScenariosDir()).find((s) => s.id === 'tool-call-with-reasoning')!;
    const live = resolveLiveTarget({
      provider: 'deepseek',
      baseUrl: server.baseUrl,
      model: 'deepseek-v4-flash',
      table,
    });
    const root = mkdtempSync(join(tmpdir(), 'rr-full-spool-'));
    let writes = 0;
    const spools = new SpoolDir(root, {
      writev: () => {
        writes++;
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
      },
    });
    const out = mkdtempSync(join(tmpdir(), 'rr-full-out-'));
    const file = join(out, 'deepseek', 'tool-call-with-reasoning.json');
    const recording = recordScenario({ live, scenario, table, stream: true, secrets: [], file, spools });
    await expect(recording).rejects.toBeInstanceOf(FileWriteError);
    await expect(recording).rejects.toThrow(/the disk is full.*TMPDIR/);
    expect(writes).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });
});
