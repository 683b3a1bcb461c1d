import { describe, expect, it } from 'vitest';
import { implementedFamilies } from '../../engine/families/registry.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { sampleTargetForRoute } from '../../shared/route-table/sample-target.js';
import { builtInStorage } from '../../tools/engine-adapters/built-in-storage.js';
import type { EngineStorage } from '../engine-under-test.js';
import { carrierDifference, retentionChecks, type RetentionCheck } from './retention-checks.js';
import type { History } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { sampleHistoryWithEveryCarrier } from '../../engine/session/sample-history.test-helper.js';

const table = loadRouteTable();

/** One run's checks on one history, the stores closed afterwards (as runMatrix does). */
function judge(history: History, policy: RoutePolicy, storage: EngineStorage = builtInStorage): RetentionCheck[] {
  const checks = retentionChecks(storage);
  try {
    return checks.run(history, policy);
  } finally {
    checks.close();
  }
}

describe('retentionChecks', () => {
  it('passes all three behaviours on every route for a history with every carrier kind', () => {
    const history = sampleHistoryWithEveryCarrier();
    // One instance for every route, as in a run: the stores are shared by the cells.
    const run = retentionChecks(builtInStorage);
    try {
      for (const long of [false, true]) {
        const h = long
          ? { messages: [...history.messages, ...history.messages.slice(1), ...history.messages.slice(1)] }
          : history;
        for (const route of table.routes.filter((r) => implementedFamilies().includes(r.family))) {
          const checks = run.run(h, resolveRoute(table, sampleTargetForRoute(route)));
          expect(checks.map((c) => c.behaviour)).toEqual(['survives-compaction', 'survives-branch', 'survives-resume']);
          for (const c of checks)
            expect(c, `${route.id} ${c.behaviour}: ${c.detail}`).toMatchObject({ status: 'pass' });
        }
      }
    } finally {
      run.close();
    }
  });

  it('is n/a when the history has no carrier', () => {
    const policy = resolveRoute(table, { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' });
    const checks = judge(
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

  it('fails an engine whose store loses a carrier on resume, or whose compaction rewrites a retained turn', () => {
    const history = sampleHistoryWithEveryCarrier();
    const policy = resolveRoute(table, { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' });
    // The judge's expectation is the history it handed in, so an engine that drops reasoning_content is caught.
    const forgetful: EngineStorage = {
      ...builtInStorage,
      openStore(file) {
        const store = builtInStorage.openStore(file);
        return {
          ...store,
          resume: (id) => ({ messages: store.resume(id).messages.map(({ reasoning_content: _dropped, ...m }) => m) }),
        };
      },
    };
    const [compaction, branch, resume] = judge(history, policy, forgetful);
    expect(compaction!.status).toBe('pass');
    expect(branch).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/reasoning_content: \d+ bytes became absent/),
    });
    expect(resume).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/after resume from state\.db, message \d+ \(assistant\) reasoning_content/),
    });
    const rewriting: EngineStorage = {
      ...builtInStorage,
      compact(h, budget, p) {
        const result = builtInStorage.compact(h, budget, p);
        return {
          ...result,
          history: {
            messages: result.history.messages.map((m) => (m.role === 'assistant' ? { ...m, content: 'rewritten' } : m)),
          },
        };
      },
    };
    expect(judge(history, policy, rewriting)[0]).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/retained assistant turn changed after compaction \(content/),
    });
  });

  it('tells a pad from an absent field and notices a re-ordered signed item', () => {
    expect(
      carrierDifference({ role: 'assistant', content: '', reasoning_content: ' ' }, { role: 'assistant', content: '' }),
    ).toMatch(/reasoning_content: 3 bytes became absent/);
    expect(
      carrierDifference(
        { role: 'assistant', content: '', reasoning_content: ' ' },
        { role: 'assistant', content: '', reasoning_content: '' },
      ),
    ).toMatch(/reasoning_content/);
    const a = {
      role: 'assistant' as const,
      content: null,
      reasoning_details: [{ type: 'reasoning.text' as const, text: 't', signature: 's' }],
    };
    const b = {
      role: 'assistant' as const,
      content: null,
      reasoning_details: [{ signature: 's', type: 'reasoning.text' as const, text: 't' }],
    };
    expect(carrierDifference(a, b)).toMatch(/reasoning_details/);
    expect(carrierDifference(a, structuredClone(a))).toBeNull();
  });
});
