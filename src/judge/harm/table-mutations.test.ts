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

  // Issue 27: removing reasoning_content from a must-echo row was judged "no spec resolves through
  // what changed", while the engine then sent the pad in place of the stored reasoning.
  it('see every field removal on every route a spec resolves through: harmful, or a changed wire with its reason', () => {
    const table = loadRouteTable(defaultRoutesFile());
    const specs = loadProviderSpecs(defaultProvidersDir());
    const cache = new Map<string, ReturnType<typeof assessTable>[number]>();
    const base = assessTable(table, specs, cache);
    const removals = singleStepMutations(table).filter((m) => m.kind === 'remove-field');
    const unseen: string[] = [];
    let judged = 0;
    for (const m of removals) {
      const route = /from route (\S+)$/.exec(m.text)![1]!;
      const through = base.filter((a) => a.route === route);
      if (through.length === 0) continue;
      const head = m.apply(table);
      if (lintRouteTable(head).length > 0) continue;
      judged++;
      const v = judgeTableChange(base, assessTable(head, specs, cache));
      if (v.verdict === 'harmful') continue;
      for (const a of through) {
        const who = `${a.provider}${a.reachedAs ? ` (${a.reachedAs})` : ''}`;
        const line = v.reasons.find((r) => r.startsWith(`${who}: `));
        if (!line || line.includes('receives the same')) unseen.push(`${m.text}: ${who}: ${v.reasons.join(' | ')}`);
      }
    }
    // The bundled table has field removals on routes specs resolve through: the loop judged some.
    expect(judged).toBeGreaterThan(0);
    expect(unseen).toEqual([]);
  });
});
