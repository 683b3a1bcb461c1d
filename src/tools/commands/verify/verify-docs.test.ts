import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { projectRoot } from '../../../shared/project-root.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { main } from '../../cli/main.js';
import { limitsFor, loadLiveLimits } from './live-limits.js';

afterEach(() => vi.restoreAllMocks());

const read = (...parts: string[]) => readFileSync(join(projectRoot(), ...parts), 'utf8');

async function help(): Promise<string> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
  // yargs prints its help through console.log.
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += a.join(' ') + '\n'));
  await main(['verify', '--help']);
  vi.restoreAllMocks();
  return out;
}

type Step = { name?: string; env?: Record<string, string>; run?: string };

describe('docs/verify-live-workflow.yml, the weekly live verification', () => {
  const workflow = YAML.parse(read('docs', 'verify-live-workflow.yml')) as {
    on: { schedule: Array<{ cron: string }> };
    permissions: Record<string, string>;
    jobs: { verify: { steps: Step[]; 'timeout-minutes': number } };
  };
  const steps = workflow.jobs.verify.steps;
  const verify = steps.find((s) => s.run?.includes('reasoning-replay.js verify'))!;

  it('runs weekly, bounded in time, and may open a pull request', () => {
    expect(workflow.on.schedule[0]!.cron).toMatch(/^\S+ \S+ \* \* [0-6]$/);
    expect(workflow.jobs.verify['timeout-minutes']).toBeGreaterThan(0);
    expect(workflow.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    expect(steps.some((s) => s.run?.includes('gh pr create'))).toBe(true);
  });

  it('uses only options `verify --help` lists, with both caps', async () => {
    const text = await help();
    const flags = [...verify.run!.matchAll(/--[\w-]+/g)].map((m) => m[0]);
    for (const flag of ['--live', '--max-requests', '--max-cost']) expect(flags).toContain(flag);
    for (const flag of flags) expect(text, flag).toContain(`${flag} `);
  });

  it('passes every verifiable provider its key from a repository secret, and nothing else as a key', () => {
    const limits = loadLiveLimits();
    const wanted = new Set(
      loadProviderSpecs().flatMap((s) => {
        const own = limitsFor(limits, s);
        const env = own.keyEnv ?? s.secretEnv;
        return !own.unavailable && env ? [env] : [];
      }),
    );
    const secrets = Object.entries(verify.env!).filter(([, v]) => v.includes('secrets.'));
    for (const [name, value] of secrets) expect(value).toBe(`\${{ secrets.${name} }}`);
    expect(new Set(secrets.map(([name]) => name))).toEqual(wanted);
  });

  it('docs/verify.md is linked from the README command table', () => {
    expect(read('README.md')).toMatch(/^\| `verify --live[^\n]*\(\[docs\/verify\.md\]\(docs\/verify\.md\)\) \|$/m);
    expect(read('docs', 'verify.md')).toContain('verify-live-workflow.yml');
  });
});
