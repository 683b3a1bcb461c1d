import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';
import { projectRoot } from '../../../shared/project-root.js';
import { CLIENT_REPORT_FILES } from '../../services/run-report/write-client-report.js';

/**
 * `run --shard i/N` plays the sessions dealt to it (one per --scenario); `report --merge` puts them back in order and
 * prints, writes and exits as the unsharded run. Each session's run id is random and each request carries its wall
 * time, in an unsharded run too: those two are masked, nothing else. The commands run through the CLI's entry point
 * in this process (main(), as bin/ calls it): the files, lines and exit codes are what is tested; each agent is still
 * a child process of `run`.
 */
const work = mkdtempSync(join(tmpdir(), 'rr-sharded-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const agent = join(projectRoot(), 'examples', 'agents', 'python-agent.py');
const scenarios = ['tool-call-with-reasoning', 'parallel-tool-calls', 'plain-two-turn-chat'].flatMap((s) => [
  '--scenario',
  s,
]);
const runCli = (args: string[]) => runCliInProcess(args, { cwd: work });
const run = (extra: string[]) =>
  runCli(['run', '--provider', 'deepseek', ...scenarios, ...extra, '--', 'python3', agent]);
const masked = (text: string) =>
  text.replace(/rr-[0-9a-f]{12}/g, 'RUN-ID').replace(/"time": ?"[^"]*"/g, '"time":"TIME"');
const outputs = (dir: string) =>
  Object.fromEntries(
    [...CLIENT_REPORT_FILES, 'requests.jsonl'].map((f) => [f, masked(readFileSync(join(work, dir, f), 'utf8'))]),
  );

describe('run --shard i/N, then report --merge', () => {
  it('merges into the files and exit code of the unsharded run, for N = 2 and 3', async () => {
    const unsharded = await run(['--out', 'unsharded']);
    expect(unsharded.stderr).not.toMatch(/internal error/);
    const expected = outputs('unsharded');
    for (const count of [2, 3]) {
      const played: string[] = [];
      for (let i = 1; i <= count; i++) {
        const shard = await run(['--shard', `${i}/${count}`, '--shard-out', join(`shards-${count}`, `${i}.json`)]);
        const line = new RegExp(`shard ${i}/${count}: (\\d) of 3 session\\(s\\)(?: \\(([^)]*)\\))?; wrote `).exec(
          shard.stdout,
        );
        expect(line, shard.stdout + shard.stderr).not.toBeNull();
        played.push(...(line![2] ? line![2].split(', ') : []));
      }
      // Every session played once, on one machine.
      expect(played.sort()).toEqual(['parallel-tool-calls', 'plain-two-turn-chat', 'tool-call-with-reasoning']);
      const merged = await runCli(['report', '--merge', `shards-${count}`, '--out', `merged-${count}`]);
      expect(merged.code, merged.stderr).toBe(unsharded.code);
      expect(merged.stdout).toContain(`merged ${count} shard(s) from shards-${count}: 3 session(s)`);
      expect(outputs(`merged-${count}`)).toEqual(expected);
    }
  }, 300_000);

  it('refuses to merge a check shard with a run shard', async () => {
    await run(['--shard', '1/2', '--shard-out', join('mixed', 'run.json')]);
    await runCli([
      'check',
      '--provider',
      'deepseek',
      '--quiet',
      '--shard',
      '2/2',
      '--shard-out',
      join(work, 'mixed', 'check.json'),
    ]);
    const merged = await runCli(['report', '--merge', 'mixed', '--out', 'merged-mixed']);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(
      /^reasoning-replay: mixed\/run\.json at \/kind: is a run shard, but mixed\/check\.json is a check shard/,
    );
  }, 120_000);

  it.each(['0/3', '4/3', 'a/b', '1/0'])('run --shard %s is bad input (exit 2) with a hint', async (value) => {
    const r = await run(['--shard', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^reasoning-replay: --shard: "${value}".*\\(hint: give i/N `));
  });
});
