import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';
import { REPORT_FILES } from '../../services/report/write-report.js';

/**
 * The CLI as a CI matrix runs it: the whole matrix on two machines, merged, against one unsharded `report`. Through the
 * CLI's entry point in this process (main(), as bin/ calls it): the files and exit codes are what is tested, and the
 * file's argument tests below import the same CLI anyway.
 */
const dir = mkdtempSync(join(tmpdir(), 'rr-shard-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reasoning-replay check --shard / report --merge', () => {
  it('two shards of the whole matrix merge into the files and exit code of one unsharded report', async () => {
    const unsharded = await runCliInProcess(['report', '--out', join(dir, 'unsharded')]);
    expect(unsharded.stderr).toBe('');
    const shards = [];
    for (const i of [1, 2])
      shards.push(
        await runCliInProcess([
          'check',
          '--quiet',
          '--shard',
          `${i}/2`,
          '--shard-out',
          join(dir, 'shards', `shard-${i}.json`),
        ]),
      );
    for (const [i, s] of shards.entries()) {
      expect(s.stderr).toBe('');
      expect(s.stdout).toMatch(new RegExp(`shard ${i + 1}/2: \\d+ of \\d+ scenario runs; wrote `));
    }
    const merged = await runCliInProcess(['report', '--merge', join(dir, 'shards'), '--out', join(dir, 'merged')]);
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toMatch(/merged 2 shard\(s\) from .*: \d+ scenario runs/);
    expect(merged.code).toBe(unsharded.code);
    for (const name of REPORT_FILES)
      expect(readFileSync(join(dir, 'merged', name), 'utf8'), name).toBe(
        readFileSync(join(dir, 'unsharded', name), 'utf8'),
      );
  }, 180_000);

  // Argument checking, not the process: the same parser and command through the CLI's entry point, in process.
  it.each(['0/3', '4/3', 'a/b', '1/0'])('check --shard %s is bad input (exit 2) with a hint', async (value) => {
    const result = await runCliInProcess(['check', '--shard', value]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^reasoning-replay: --shard: "${value}".*\\(hint: give i/N `));
  });
});
