import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
// check decides in process; the spawned CLI is tested where the process is the point (bin-*.test.ts, tier-up-budget).
import { runCliInProcess as runCli } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-check-'));

/** A copy of the bundled table with one edit, as a pull request would make it. */
function editedTable(name: string, edit: (table: RouteTable) => void): string {
  const table = JSON.parse(readFileSync(defaultRoutesFile(), 'utf8')) as RouteTable;
  edit(table);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(table, null, 2));
  return file;
}
const route = (table: RouteTable, id: string) => table.routes.find((r) => r.id === id)!;

// Each edited table is checked on the provider its edit concerns (--provider): the first test runs the whole
// bundled matrix once, and a PR's edit is judged on the cells it can change.
describe('reasoning-replay check', () => {
  it('passes the bundled route table and prints the matrix; --strict counts warnings (and only warnings) as violations', async () => {
    const result = await runCli(['check', '--strict']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/deepseek → deepseek \(must-echo\)/);
    const summary = /\d+ scenario runs: \d+ pass, (\d+) warnings?, 0 fail/.exec(result.stdout);
    expect(summary).not.toBeNull();
    const warnings = Number(summary![1]);
    // Without --strict warnings alone exit 0 (npm start); with it they are violations, and it says so.
    expect(result.code).toBe(warnings > 0 ? 1 : 0);
    if (warnings > 0) expect(result.stdout).toMatch(/! warning: .+ via route .+, .+: .+https?:\/\//);
    expect(result.stdout.includes('--strict:')).toBe(warnings > 0);
  });

  it('fails when a strict route is given reasoning_details, naming the route and rule', async () => {
    const file = editedTable('mistral-details', (t) => route(t, 'mistral').fields.push('reasoning_details'));
    const result = await runCli(['check', '--routes', file, '--quiet', '--provider', 'mistral']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ mistral × \S+ \(route mistral, strict\)/);
    expect(result.stdout).toContain('[strict-schema] route mistral is strict but lists reasoning_details');
  });

  it('fails when Mistral is made standard and sent reasoning_details, quoting Mistral’s own 422', async () => {
    const file = editedTable('mistral-standard', (t) => {
      route(t, 'mistral').tier = 'standard';
      route(t, 'mistral').fields = ['reasoning_details'];
    });
    const result = await runCli(['check', '--routes', file, '--quiet', '--provider', 'mistral']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('answered 422');
    expect(result.stdout).toContain('Extra inputs are not permitted');
    expect(result.stdout).toContain('the route table is stale for this route');
  });

  it('fails when DeepSeek stops receiving reasoning_content: the must-echo pad would replace its reasoning', async () => {
    const file = editedTable('deepseek-no-rc', (t) => {
      route(t, 'deepseek').fields = [];
    });
    const result = await runCli(['check', '--routes', file, '--quiet', '--provider', 'deepseek']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /✗ deepseek × tool-call-with-reasoning \(route deepseek, must-echo\)\n.*\[must-echo\] .*message 1 got the " " pad although it has stored reasoning/,
    );
  });

  it('fails when DeepSeek leaves the must-echo tier, quoting DeepSeek’s 400', async () => {
    const file = editedTable('deepseek-standard', (t) => {
      route(t, 'deepseek').tier = 'standard';
      route(t, 'deepseek').fields = [];
    });
    const result = await runCli(['check', '--routes', file, '--quiet', '--provider', 'deepseek']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ deepseek × tool-call-with-reasoning \(route deepseek, standard\)/);
    expect(result.stdout).toContain('The `reasoning_content` in the thinking mode must be passed back to the API.');
  });

  it('fails when OpenRouter stops receiving reasoning_details, which it asks for back', async () => {
    const file = editedTable('openrouter-no-details', (t) => {
      route(t, 'openrouter').fields = ['reasoning_content', 'reasoning'];
    });
    const result = await runCli(['check', '--routes', file, '--quiet', '--provider', 'openrouter']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\[fields-sent\] .*wants reasoning_details back.*route openrouter dropped it/);
  });

  it('fails when a vendor flag moves to the wrong route', async () => {
    const file = editedTable('flag-leak', (t) => {
      route(t, 'mistral').flags = [{ set: { thinking: { type: 'enabled', keep: 'all' } } }];
    });
    const result = await runCli(['check', '--routes', file, '--quiet', '--provider', 'mistral']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ mistral × .*\n.*\[strict-schema\].*unexpected property "thinking"/);
  });

  it('exits 2 with file and pointer on a malformed table', async () => {
    const file = editedTable('bad-tier', (t) => {
      (route(t, 'groq') as { tier: string }).tier = 'lenient';
    });
    const result = await runCli(['check', '--routes', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /bad-tier\.json at \/routes\/\d+\/tier: must be one of "standard", "strict", "must-echo"/,
    );
  });

  it('exits 2 for a deadline that is not a positive number', async () => {
    const result = await runCli(['check', '--timeout', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--timeout: must be a positive number of milliseconds');
  });

  it('exits 2 when a route can never be reached', async () => {
    const file = editedTable('shadowed', (t) => {
      t.routes.unshift({
        id: 'catch-openrouter',
        label: 'x',
        match: { hosts: ['openrouter.ai'], providers: ['openrouter'] },
        family: 'openai-chat',
        tier: 'standard',
        fields: [],
      });
    });
    const result = await runCli(['check', '--routes', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('route "openrouter" can never be reached');
  });
});
