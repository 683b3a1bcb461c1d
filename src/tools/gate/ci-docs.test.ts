import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/helpers/run-cli-sync.test-helper.js';
import { projectRoot } from '../../shared/project-root.js';

/** The example workflow must only use commands and options the CLI has: docs rot silently otherwise. */
describe('docs/github-actions-example.yml', () => {
  const yml = readFileSync(join(projectRoot(), 'docs', 'github-actions-example.yml'), 'utf8');
  const invocations = [...yml.matchAll(/node bin\/reasoning-replay\.js (\w[\w-]*)([^\n]*)/g)].map((m) => ({
    command: m[1]!,
    flags: [...m[2]!.matchAll(/--[\w-]+/g)].map((f) => f[0]),
  }));

  it('gates with check --base and reports; the scheduled job runs the framework matrix, then reports', () => {
    expect(invocations.map((i) => i.command)).toEqual(['check', 'report', 'report']);
    expect(yml).toMatch(/schedule:[\s\S]*run: npm run frameworks/);
    expect(invocations[0]!.flags).toContain('--base');
    expect(yml).toContain('fetch-depth: 0');
  });

  it.each(invocations.map((i) => [i.command, i.flags] as const))(
    '%s uses only options its --help lists',
    (command, flags) => {
      const help = runCli([command, '--help']);
      expect(help.code).toBe(0);
      for (const flag of flags) expect(help.stdout, `${command} ${flag}`).toContain(`${flag} `);
    },
  );
});
