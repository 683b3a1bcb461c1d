import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { projectRoot } from '../../../shared/project-root.js';

/** The sharded workflow in docs/ci.md must be valid YAML using only commands and options the CLI has. */
const doc = readFileSync(join(projectRoot(), 'docs', 'ci.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Sharding the matrix across CI machines'));
const yml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string;
  strategy?: { matrix?: { shard?: number[] } };
  steps: Step[];
}

describe('docs/ci.md: the sharded GitHub Actions example', () => {
  const jobs = (parse(yml) as { jobs: Record<string, Job> }).jobs;

  it('shards check four ways, uploads each file, and merges after every shard', () => {
    expect(jobs.check!.strategy!.matrix!.shard).toEqual([1, 2, 3, 4]);
    const runs = jobs.check!.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toMatch(/check .*--shard "\$SHARD\/4" --shard-out "shards\/check-\$SHARD\.json"/);
    const upload = jobs.check!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.with!.path).toBe('shards/check-${{ matrix.shard }}.json');
    expect(jobs.merge!.needs).toBe('check');
    const download = jobs.merge!.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    expect(download.with).toMatchObject({ pattern: 'check-shard-*', path: 'shards', 'merge-multiple': true });
    expect(jobs.merge!.steps.map((s) => s.run ?? '').join('\n')).toContain('report --merge shards');
  });

  const invocations = [...yml.matchAll(/node bin\/reasoning-replay\.js (\w[\w-]*)([^\n]*)/g)].map((m) => ({
    command: m[1]!,
    flags: [...m[2]!.matchAll(/--[\w-]+/g)].map((f) => f[0]),
  }));
  it.each(invocations.map((i) => [i.command, i.flags] as const))(
    '%s uses only options its --help lists',
    (command, flags) => {
      const help = runCli([command, '--help']);
      expect(help.code).toBe(0);
      for (const flag of flags) expect(help.stdout, `${command} ${flag}`).toContain(`${flag} `);
    },
  );
});
