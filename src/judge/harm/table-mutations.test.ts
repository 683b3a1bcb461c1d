import { describe, expect, it } from 'vitest';
import { loadProviderSpecs, defaultProvidersDir } from '../../shared/provider-specs/load-provider-specs.js';
import { defaultRoutesFile, loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { lintRouteTable } from '../../shared/route-table/lint-route-table.js';
import { assessTable } from './judge-harm.js';
import { judgeTableChange } from './judge-table-change.js';
import { singleStepMutations } from './table-mutations.js';

/**
 * Every single-step mutation of the bundled route table (whatever it holds today: nothing here
 * names a route or a value) is either reported harmful by the harm judge, refused by the table
 * loader, or shown harmless by the provider specs with a reason per changed carrier. A mutation that
 * changes what a provider receives with neither is a hole in the judge or in a spec, and fails.
 */
describe('single-step mutations of specs/routes.json', () => {
  it('are each harmful, refused, or harmless with a reason from the provider specs', () => {
    const table = loadRouteTable(defaultRoutesFile());
    const specs = loadProviderSpecs(defaultProvidersDir());
    const cache = new Map<string, ReturnType<typeof assessTable>[number]>();
    const base = assessTable(table, specs, cache);
    const counts = { harmful: 0, refused: 0, harmless: 0, unexplained: 0 };
    const unexplained: string[] = [];
    const lines: string[] = [];
    const mutations = singleStepMutations(table);
    for (const m of mutations) {
      const head = m.apply(table);
      const problems = lintRouteTable(head);
      if (problems.length > 0) {
        counts.refused++;
        lines.push(`refused   ${m.text}: ${problems[0]!.problem}`);
        continue;
      }
      const v = judgeTableChange(base, assessTable(head, specs, cache));
      counts[v.verdict]++;
      if (v.verdict === 'harmful') lines.push(`harmful   ${m.text}: ${v.findings[0]!.detail}`);
      else lines.push(`${v.verdict.padEnd(9)} ${m.text}: ${v.reasons.join(' | ')}`);
      if (v.verdict === 'unexplained') unexplained.push(`${m.text}: ${v.reasons.join(' | ')}`);
    }
    if (process.env.REASONING_REPLAY_MUTATIONS_VERBOSE) console.log(lines.join('\n'));
    console.log(
      `route-table mutations: ${mutations.length} (${counts.harmful} harmful, ${counts.refused} refused by the loader, ${counts.harmless} harmless with a reason from the specs, ${counts.unexplained} unexplained)`,
    );
    // The table did not collapse to one kind of edit: the generator saw every kind the issue names that the table has.
    expect(new Set(mutations.map((m) => m.kind)).size).toBeGreaterThanOrEqual(5);
    expect(unexplained).toEqual([]);
    expect(counts.harmful + counts.refused + counts.harmless).toBe(mutations.length);
  });
});
