import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { projectRoot } from '../../../shared/project-root.js';

interface Workflow {
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>;
}

/** The example workflow must use the action as action.yml defines it: docs rot silently otherwise. */
describe('docs/github-actions-example.yml', () => {
  const root = projectRoot();
  const workflow = parse(readFileSync(join(root, 'docs', 'github-actions-example.yml'), 'utf8')) as Workflow;
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const ours = steps.filter((s) => s.uses === './');

  it('gates with the repository’s own action, on a full checkout, with the permissions the comment needs', () => {
    expect(ours).toHaveLength(1);
    expect(steps.findIndex((s) => s.uses?.startsWith('actions/checkout@'))).toBeLessThan(steps.indexOf(ours[0]!));
    expect(steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with?.['fetch-depth']).toBe(0);
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });

  it('runs the framework matrix on a schedule only, then reports with options report --help lists', () => {
    const frameworks = workflow.jobs['frameworks'] as { if?: string; steps: Array<{ run?: string }> } | undefined;
    expect(frameworks?.if).toMatch(/schedule/);
    const runs = (frameworks?.steps ?? []).flatMap((s) => (s.run ? [s.run] : []));
    expect(runs).toContain('npm run frameworks');
    const report = runs.find((r) => r.startsWith('node bin/reasoning-replay.js report'));
    expect(report).toBeDefined();
    const help = runCli(['report', '--help']);
    expect(help.code).toBe(0);
    for (const flag of report!.match(/--[\w-]+/g) ?? []) expect(help.stdout, flag).toContain(`${flag} `);
  });

  it('passes only inputs action.yml declares', () => {
    for (const step of ours)
      for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), key).toContain(key);
  });
});
