import { describe, expect, it } from 'vitest';
import { implementedFamilies } from '../../engine/families/registry.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { sampleTargetForRoute } from '../../shared/route-table/sample-target.js';
import { builtInEngine } from '../../tools/services/engine-adapters/built-in-engine.js';
import type { EngineTarget, EngineUnderTest } from '../engine-under-test.js';
import { carrierDifference, retentionChecks } from './retention-checks.js';
import type { History, Message } from '../../shared/history/history.js';
import type { RouteTarget } from '../../shared/route-table/route-table.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { sampleHistoryWithEveryCarrier } from '../../engine/session/sample-history.test-helper.js';

const table = loadRouteTable();

/** The cell target the retention checks are handed for a route's sample target. */
function cellTarget(target: RouteTarget, family: FamilyId) {
  const engineTarget: EngineTarget = { ...target, family, baseUrl: `https://${target.host}`, path: '/' };
  const spec = { id: `${target.provider}-sample`, label: target.provider } as ProviderSpec;
  return { target: engineTarget, spec, policy: undefined as never, options: {} };
}
const deepseek = cellTarget(
  { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' },
  'openai-chat',
);

/** The built-in engine's storage, whose resume hands back `resumed(history)` instead of what was stored. */
function storageResuming(resumed: (history: History) => History): NonNullable<EngineUnderTest['storage']> {
  return {
    async openStore(file) {
      const store = await builtInEngine.storage!.openStore(file);
      return { ...store, resume: async (id) => resumed(await store.resume(id)) };
    },
  };
}
const eachMessage = (edit: (m: Message) => Message) => (history: History) => ({
  messages: history.messages.map(edit),
});

/** One run's checks on one history, the stores closed afterwards (as runMatrix does). */
async function judge(history: History, engine: EngineUnderTest = builtInEngine, at = deepseek) {
  const checks = retentionChecks(engine, table);
  try {
    return await checks.run(history, at, []);
  } finally {
    await checks.close();
  }
}

describe('retentionChecks', () => {
  it('passes all three behaviours on every route for a history with every carrier kind', async () => {
    const history = sampleHistoryWithEveryCarrier();
    // One instance for every route, as in a run: the stores are shared by the cells.
    const run = retentionChecks(builtInEngine, table);
    try {
      for (const long of [false, true]) {
        const h = long
          ? { messages: [...history.messages, ...history.messages.slice(1), ...history.messages.slice(1)] }
          : history;
        for (const route of table.routes.filter((r) => implementedFamilies().includes(r.family))) {
          const checks = await run.run(h, cellTarget(sampleTargetForRoute(route), route.family), []);
          expect(checks.map((c) => c.behaviour)).toEqual(['survives-compaction', 'survives-branch', 'survives-resume']);
          for (const c of checks)
            expect(c, `${route.id} ${c.behaviour}: ${c.detail}`).toMatchObject({ status: 'pass' });
        }
      }
    } finally {
      await run.close();
    }
  });

  it('is n/a when the history has no carrier', async () => {
    const checks = await judge({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
    });
    expect(checks.length).toBe(3);
    expect(checks.every((c) => c.status === 'n/a')).toBe(true);
  });

  it('fails an engine whose store loses a carrier on resume, or whose compaction rewrites a retained turn', async () => {
    const history = sampleHistoryWithEveryCarrier();
    // The judge's expectation is the history it handed in, so an engine that drops reasoning_content is caught.
    const forgetful: EngineUnderTest = {
      ...builtInEngine,
      storage: storageResuming(eachMessage(({ reasoning_content: _dropped, ...m }) => m)),
    };
    const [compaction, branch, resume] = await judge(history, forgetful);
    expect(compaction!.status).toBe('pass');
    expect(branch).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/reasoning_content: \d+ bytes became absent/),
    });
    expect(resume).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/after resume from state\.db, message \d+ \(assistant\) reasoning_content/),
    });
    const rewriting: EngineUnderTest = {
      ...builtInEngine,
      compaction: {
        ...builtInEngine.compaction!,
        async compact(h, budget, p) {
          const result = await builtInEngine.compaction!.compact(h, budget, p);
          return {
            ...result,
            history: {
              messages: result.history.messages.map((m) =>
                m.role === 'assistant' ? { ...m, content: 'rewritten' } : m,
              ),
            },
          };
        },
      },
    };
    expect((await judge(history, rewriting))[0]).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/retained assistant turn changed after compaction \(content/),
    });
  });

  it('fails a copy whose request differs though its carriers are whole, and builds the original request once', async () => {
    const history = sampleHistoryWithEveryCarrier();
    let originalBuilds = 0;
    // The store gives a user turn back edited: every carrier survives, the request the route gets does not.
    const editing: EngineUnderTest = {
      ...builtInEngine,
      buildRequest: async (h, input) => {
        if (h === history) originalBuilds++;
        return builtInEngine.buildRequest!(h, input);
      },
      storage: storageResuming(
        eachMessage((m) => (m.role === 'user' ? { ...m, content: `${String(m.content)} (edited)` } : m)),
      ),
    };
    const [, branch, resume] = await judge(history, editing);
    expect(branch).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/request built from the branch differs/),
    });
    expect(resume).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/request built from the resumed session differs from the live one/),
    });
    expect(originalBuilds).toBe(1);
  });

  it("warns an engine judged by harm whose store gives carriers back in another key order; fails this project's", async () => {
    const history = sampleHistoryWithEveryCarrier();
    /** Each reasoning_details item's keys reversed: every byte of every value kept, key order not. */
    const reorder = (h: History): History => ({
      messages: h.messages.map((m) =>
        m.reasoning_details
          ? {
              ...m,
              reasoning_details: m.reasoning_details.map(
                (d) => Object.fromEntries(Object.entries(d).reverse()) as typeof d,
              ),
            }
          : m,
      ),
    });
    const reordering = (judgedBy: EngineUnderTest['judgedBy']): EngineUnderTest => ({
      ...builtInEngine,
      judgedBy,
      storage: storageResuming(reorder),
    });
    const [, branch, resume] = await judge(history, reordering('harm'));
    for (const check of [branch, resume])
      expect(check).toMatchObject({ status: 'warn', detail: expect.stringMatching(/key order only.*warning/) });
    const [, ownBranch, ownResume] = await judge(history, reordering(undefined));
    expect([ownBranch!.status, ownResume!.status]).toEqual(['fail', 'fail']);
    // A value changed is harm on either contract.
    const editing: EngineUnderTest = {
      ...reordering('harm'),
      storage: storageResuming(
        eachMessage((m) => (m.reasoning_content ? { ...m, reasoning_content: `${m.reasoning_content}!` } : m)),
      ),
    };
    expect((await judge(history, editing))[2]!.status).toBe('fail');
  });

  it('fails a compaction whose own count disagrees with the preflight, or that drops messages with no summary left', async () => {
    const history = sampleHistoryWithEveryCarrier();
    const long = { messages: [...history.messages, ...history.messages.slice(1), ...history.messages.slice(1)] };
    // Its tail walk prices every message at one token: it believes anything fits.
    const optimistic: EngineUnderTest = {
      ...builtInEngine,
      compaction: {
        ...builtInEngine.compaction!,
        async compact(h, budget, p) {
          const result = await builtInEngine.compaction!.compact(h, 1_000_000, p);
          return { ...result, status: 'compacted', estimateAfter: Math.min(budget, h.messages.length) };
        },
      },
    };
    expect((await judge(long, optimistic))[0]).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/preflight estimate prices it at \d+/),
    });
    // It summarizes, then throws the summary away.
    const amnesic: EngineUnderTest = {
      ...builtInEngine,
      compaction: {
        ...builtInEngine.compaction!,
        async compact(h, budget, p) {
          const result = await builtInEngine.compaction!.compact(h, budget, p);
          const keep = result.kept.map((k, j) => [k, j] as const).filter(([k]) => k !== null);
          return {
            ...result,
            kept: keep.map(([k]) => k),
            history: { messages: keep.map(([, j]) => result.history.messages[j]!) },
          };
        },
      },
    };
    expect((await judge(long, amnesic))[0]).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/dropped and no summary stands for them/),
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
