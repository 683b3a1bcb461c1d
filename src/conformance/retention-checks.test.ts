import { describe, expect, it } from 'vitest';
import { implementedFamilies } from '../families/registry.js';
import { loadRouteTable } from '../routes/load-route-table.js';
import { resolveRoute } from '../routes/resolve-route.js';
import { sampleTargetForRoute } from '../routes/sample-target.js';
import { carrierDifference, retentionChecks } from './retention-checks.js';
import { sampleHistoryWithEveryCarrier } from '../session/testing/sample-history.js';

const table = loadRouteTable();

describe('retentionChecks', () => {
  it('passes all three behaviours on every route for a history with every carrier kind', () => {
    const history = sampleHistoryWithEveryCarrier();
    for (const long of [false, true]) {
      const h = long ? { messages: [...history.messages, ...history.messages.slice(1), ...history.messages.slice(1)] } : history;
      for (const route of table.routes.filter((r) => implementedFamilies().includes(r.family))) {
        const checks = retentionChecks(h, resolveRoute(table, sampleTargetForRoute(route)));
        expect(checks.map((c) => c.behaviour)).toEqual(['survives-compaction', 'survives-branch', 'survives-resume']);
        for (const c of checks) expect(c, `${route.id} ${c.behaviour}: ${c.detail}`).toMatchObject({ status: 'pass' });
      }
    }
  });

  it('is n/a when the history has no carrier', () => {
    const policy = resolveRoute(table, { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' });
    const checks = retentionChecks(
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
      policy,
    );
    expect(checks.every((c) => c.status === 'n/a')).toBe(true);
  });

  it('tells a pad from an absent field and notices a re-ordered signed item', () => {
    expect(carrierDifference({ role: 'assistant', content: '', reasoning_content: ' ' }, { role: 'assistant', content: '' })).toMatch(/reasoning_content: 3 bytes became absent/);
    expect(carrierDifference({ role: 'assistant', content: '', reasoning_content: ' ' }, { role: 'assistant', content: '', reasoning_content: '' })).toMatch(/reasoning_content/);
    const a = { role: 'assistant' as const, content: null, reasoning_details: [{ type: 'reasoning.text' as const, text: 't', signature: 's' }] };
    const b = { role: 'assistant' as const, content: null, reasoning_details: [{ signature: 's', type: 'reasoning.text' as const, text: 't' }] };
    expect(carrierDifference(a, b)).toMatch(/reasoning_details/);
    expect(carrierDifference(a, structuredClone(a))).toBeNull();
  });
});
