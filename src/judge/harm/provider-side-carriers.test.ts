import { describe, expect, it } from 'vitest';
import { loadProviderSpecs, defaultProvidersDir } from '../../shared/provider-specs/load-provider-specs.js';
import { defaultRoutesFile, loadRouteTable } from '../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';
import { assessTable } from './judge-harm.js';
import { judgeTableChange } from './judge-table-change.js';
import { singleStepMutations } from './table-mutations.js';

/**
 * A table change that would drop a provider's compaction items, or send thinking bound to its prefix to a refusal, is
 * named harmful with the behaviour it breaks. Every such single-step edit of the bundled table is tried, whatever rows
 * it holds today.
 */
const table = loadRouteTable(defaultRoutesFile());
const specs = loadProviderSpecs(defaultProvidersDir());
const base = assessTable(table, specs);
const judged = (head: RouteTable) => judgeTableChange(base, assessTable(head, specs));

describe('the harm judge on provider-side carriers', () => {
  it('the bundled table carries every compaction item and binding back as its providers want', () => {
    const named = base
      .flatMap((a) => a.findings)
      .filter((f) => ['compaction-kept', 'binding-respected'].includes(f.behaviour));
    expect(named).toEqual([]);
  });

  const edits = singleStepMutations(table).filter(
    (m) => m.kind === 'drop-server-carrier' || m.kind === 'drop-binding-model',
  );
  it('the bundled table has such rows to edit', () => expect(edits.length).toBeGreaterThan(0));

  it.each(edits.map((m) => [m.text, m] as const))('%s', (_, m) => {
    const v = judged(m.apply(table));
    const behaviour = m.kind === 'drop-server-carrier' ? 'compaction-kept' : 'binding-respected';
    const route = /^route (\S+):/.exec(m.text)![1]!;
    // Harmful where a provider resolved through the row issues the carrier or binds the model; said why otherwise.
    const concerned = base.some(
      (a) =>
        a.route === route &&
        (behaviour === 'compaction-kept'
          ? a.profile.includes('server carrier compaction')
          : a.profile.some(
              (p) => p.startsWith('binds ') && p.endsWith(': true') && m.text.includes(p.slice(6, p.indexOf(':'))),
            )),
    );
    if (concerned) {
      expect(v.verdict, v.reasons.join(' | ')).toBe('harmful');
      expect(v.findings.map((f) => f.behaviour)).toContain(behaviour);
    } else expect(v.verdict, v.reasons.join(' | ')).not.toBe('unexplained');
  });
});
