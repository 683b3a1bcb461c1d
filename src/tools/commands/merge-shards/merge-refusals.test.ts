import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';

/**
 * `report --merge` joins only the N shards of one run: a missing, repeated or foreign file is bad input (exit 2), one
 * line naming the file, and nothing is written.
 */
const dir = mkdtempSync(join(tmpdir(), 'rr-merge-refusals-'));
const made = join(dir, 'made');
let stderr = '';

async function cli(args: string[]): Promise<number> {
  stderr = '';
  return main(args);
}

/** A folder holding the named files of `made/`, under new names when given as [from, to]. */
function folder(name: string, entries: Array<string | [string, string]>): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  for (const e of entries) {
    const [from, to] = typeof e === 'string' ? [e, e] : e;
    copyFileSync(join(made, from), join(d, to));
  }
  return d;
}

beforeAll(async () => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const narrow = ['--provider', 'deepseek', '--quiet'];
  for (const [shard, file] of [
    ['1/3', '1of3.json'],
    ['2/3', '2of3.json'],
    ['3/3', '3of3.json'],
    ['1/4', '1of4.json'],
  ] as const)
    await cli(['check', ...narrow, '--shard', shard, '--shard-out', join(made, file)]);
  // Shard 2/3 of a run on another route table (a pull request's edit).
  const table = JSON.parse(readFileSync(defaultRoutesFile(), 'utf8')) as RouteTable;
  table.routes.find((r) => r.id === 'deepseek')!.notes = 'edited';
  writeFileSync(join(dir, 'routes.json'), JSON.stringify(table, null, 2));
  await cli([
    'check',
    ...narrow,
    '--routes',
    join(dir, 'routes.json'),
    '--shard',
    '2/3',
    '--shard-out',
    join(made, 'other-table.json'),
  ]);
  // Shard 2/3 as gated against another base: the same file, its base changed.
  const gated = JSON.parse(readFileSync(join(made, '2of3.json'), 'utf8')) as { matrix: Record<string, unknown> };
  gated.matrix.base = { ref: 'origin/main', commit: 'a'.repeat(40) };
  writeFileSync(join(made, 'other-base.json'), JSON.stringify(gated));
  writeFileSync(join(made, 'future.json'), JSON.stringify({ ...gated, shardVersion: 2 }));
  writeFileSync(join(made, 'not-a-shard.json'), JSON.stringify({ hello: 'world' }));
}, 120_000);

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const oneLine = () => {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  return stderr;
};

describe('report --merge refuses', () => {
  it('merges the three shards of one run (the baseline the refusals below break)', async () => {
    const d = folder('whole', ['1of3.json', '2of3.json', '3of3.json']);
    expect(await cli(['report', '--merge', d, '--out', join(dir, 'out-whole')])).toBe(0);
    expect(stderr).toBe('');
  });

  it('a missing shard, naming the folder and the shard', async () => {
    const d = folder('missing', ['1of3.json', '3of3.json']);
    expect(await cli(['report', '--merge', d, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/missing: holds 2 of 3 shards: shard 2\/3 is missing \(hint: /);
  });

  it('a shard given twice, naming the second file', async () => {
    const d = folder('duplicate', ['1of3.json', '2of3.json', '3of3.json', ['2of3.json', 'again.json']]);
    expect(await cli(['report', '--merge', d, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/again\.json at \/shard\/index: is shard 2\/3 again \(also .*2of3\.json\)/);
  });

  it('shards of runs split another number of ways', async () => {
    const d = folder('mixed-n', ['1of3.json', '2of3.json', '3of3.json', ['1of4.json', '4-1of4.json']]);
    expect(await cli(['report', '--merge', d, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/4-1of4\.json at \/shard\/count: is shard 1\/4, but .*1of3\.json is shard 1\/3/);
  });

  it('a shard of another route table', async () => {
    const d = folder('other-table', ['1of3.json', ['other-table.json', '2of3.json'], '3of3.json']);
    expect(await cli(['report', '--merge', d, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/2of3\.json at \/matrix\/routesSha256: was made from another route table than/);
  });

  it('a shard gated against another base', async () => {
    const d = folder('other-base', ['1of3.json', ['other-base.json', '2of3.json'], '3of3.json']);
    expect(await cli(['report', '--merge', d, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/2of3\.json at \/matrix\/base: was gated against another base than/);
  });

  it('a file of another format version, or not a shard result at all', async () => {
    const future = folder('future', ['1of3.json', ['future.json', '2of3.json'], '3of3.json']);
    expect(await cli(['report', '--merge', future, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/2of3\.json at \/shardVersion: is shard format 2; this reasoning-replay reads format 1/);
    const stray = folder('stray', ['1of3.json', 'not-a-shard.json']);
    expect(await cli(['report', '--merge', stray, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/not-a-shard\.json.*: .*\(hint: pass a folder holding only the files/);
  });

  it('an empty or absent folder', async () => {
    const empty = folder('empty', []);
    expect(await cli(['report', '--merge', empty, '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/empty: holds no shard result/);
    expect(await cli(['report', '--merge', join(dir, 'nowhere'), '--out', join(dir, 'out')])).toBe(2);
    expect(oneLine()).toMatch(/nowhere: no such folder/);
  });
});
