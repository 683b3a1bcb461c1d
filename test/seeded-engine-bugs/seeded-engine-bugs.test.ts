import { afterAll, describe, expect, it, vi } from 'vitest';
import { builtInEngine } from '../../src/tools/services/engine-adapters/built-in-engine.js';
import { checkScope } from '../../src/tools/services/matrix/check-scope.js';
import { loadMatrixInputs, runMatrix } from '../../src/tools/services/matrix/run-matrix.js';
import { SEEDED_BUGS, type Patches, type SeededBug } from './seeded-engine-bugs.test-helper.js';
import type { Behaviour } from '../../src/judge/conformance/verdict.js';
import type * as SelectCarriersModule from '../../src/engine/policy/select-carriers.js';
import type * as RegistryModule from '../../src/engine/families/registry.js';
import type * as DetectUnknownFieldModule from '../../src/engine/replay/detect-unknown-field.js';
import type * as FallbackModule from '../../src/engine/replay/fallback.js';
import type * as UnknownFieldVerdictsModule from '../../src/engine/replay/unknown-field-verdicts.js';
import type * as SalvageModule from '../../src/engine/compaction/salvage.js';
import type * as CheckpointModule from '../../src/engine/compaction/checkpoint.js';
import type * as EstimateTokensModule from '../../src/engine/compaction/estimate-tokens.js';
import type * as CompressModule from '../../src/engine/compaction/compress.js';
import type * as SessionStoreModule from '../../src/engine/session/session-store.js';
import type * as RouteForTargetModule from '../../src/engine/policy/route-for-target.js';
import type * as ServerCompactionFloorModule from '../../src/engine/compaction/server-compaction-floor.js';

/**
 * Issue 28: `check` alone must catch every seeded engine bug. Each bug of SEEDED_BUGS is applied
 * alone to this project's engine through the patches below (vi.mock of the engine modules it lives
 * in, each delegating to the real function unless the bug is active), and the built-in engine is
 * driven through the engine-under-test seam exactly as `check` drives it (and as it drives an
 * external engine). The matrix must fail the bug's rule. Kept fast: every bug runs only the routes
 * of the provider targets it names (check --provider) and the scenarios that exercise its rule.
 */
const state = vi.hoisted(() => ({ bug: undefined as { patch: Patches } | undefined }));
const patch = () => state.bug?.patch;

vi.mock('../../src/engine/policy/select-carriers.js', async (importOriginal) => {
  const real = await importOriginal<typeof SelectCarriersModule>();
  const broken = (...args: Parameters<typeof real.selectCarriers>) => {
    const p = patch()?.selectCarriers;
    return (p ? p(real.selectCarriers as never)(...args) : real.selectCarriers(...args)) as ReturnType<
      typeof real.selectCarriers
    >;
  };
  return { ...real, selectCarriers: broken };
});

vi.mock('../../src/engine/families/registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof RegistryModule>();
  return {
    ...real,
    familyFor: (id: Parameters<typeof real.familyFor>[0]) => {
      const family = real.familyFor(id);
      const p = patch()?.families?.[id];
      return p ? (p(family as never) as unknown as typeof family) : family;
    },
  };
});

vi.mock('../../src/engine/replay/detect-unknown-field.js', async (importOriginal) => {
  const real = await importOriginal<typeof DetectUnknownFieldModule>();
  return {
    ...real,
    detectUnknownField: (...args: Parameters<typeof real.detectUnknownField>) => {
      const p = patch()?.detectUnknownField;
      return p
        ? p(real.detectUnknownField as never, real)(...(args as [never, never, never, never]))
        : real.detectUnknownField(...args);
    },
  };
});

vi.mock('../../src/engine/replay/fallback.js', async (importOriginal) => {
  const real = await importOriginal<typeof FallbackModule>();
  return {
    ...real,
    sendWithFallback: (args: Parameters<typeof real.sendWithFallback>[0]) => {
      const p = patch()?.sendWithFallback;
      return p ? p(real.sendWithFallback as never)(args as never) : real.sendWithFallback(args);
    },
  };
});

vi.mock('../../src/engine/replay/unknown-field-verdicts.js', async (importOriginal) => {
  const real = await importOriginal<typeof UnknownFieldVerdictsModule>();
  type Target = Parameters<InstanceType<typeof real.UnknownFieldVerdicts>['fieldsFor']>[0];
  const key = (t: Target): Target => patch()?.verdictKey?.(t) ?? t;
  class Verdicts extends real.UnknownFieldVerdicts {
    override fieldsFor(target: Target) {
      return super.fieldsFor(key(target));
    }
    override record(target: Target, fields: Parameters<InstanceType<typeof real.UnknownFieldVerdicts>['record']>[1]) {
      return super.record(key(target), fields);
    }
  }
  return { ...real, UnknownFieldVerdicts: Verdicts };
});

vi.mock('../../src/engine/compaction/salvage.js', async (importOriginal) => {
  const real = await importOriginal<typeof SalvageModule>();
  return {
    ...real,
    salvage: (...args: Parameters<typeof real.salvage>) => {
      const p = patch()?.salvage;
      return (p ? p(real.salvage as never)(...args) : real.salvage(...args)) as ReturnType<typeof real.salvage>;
    },
  };
});

vi.mock('../../src/engine/compaction/checkpoint.js', async (importOriginal) => {
  const real = await importOriginal<typeof CheckpointModule>();
  return {
    ...real,
    shadowedCheckpoints: (messages: Parameters<typeof real.shadowedCheckpoints>[0]) => {
      const p = patch()?.shadowedCheckpoints;
      return p ? p(real.shadowedCheckpoints)(messages) : real.shadowedCheckpoints(messages);
    },
  };
});

vi.mock('../../src/engine/compaction/estimate-tokens.js', async (importOriginal) => {
  const real = await importOriginal<typeof EstimateTokensModule>();
  // Only importers see this: the module's own estimateTokens (the preflight) keeps the real pricing.
  return {
    ...real,
    priceMessage: (...args: Parameters<typeof real.priceMessage>) => {
      const p = patch()?.tailWalkPrice;
      return p ? p(real.priceMessage)(...args) : real.priceMessage(...args);
    },
  };
});

vi.mock('../../src/engine/compaction/compress.js', async (importOriginal) => {
  const real = await importOriginal<typeof CompressModule>();
  return {
    ...real,
    compress: (...args: Parameters<typeof real.compress>) => {
      const p = patch()?.compress;
      return (p ? p(real.compress as never)(...(args as [never, number])) : real.compress(...args)) as ReturnType<
        typeof real.compress
      >;
    },
  };
});

vi.mock('../../src/engine/compaction/server-compaction-floor.js', async (importOriginal) => {
  const real = await importOriginal<typeof ServerCompactionFloorModule>();
  return {
    ...real,
    holdsServerCompaction: (message: Parameters<typeof real.holdsServerCompaction>[0]) => {
      const p = patch()?.holdsServerCompaction;
      return p ? p(real.holdsServerCompaction)(message) : real.holdsServerCompaction(message);
    },
  };
});

vi.mock('../../src/engine/session/session-store.js', async (importOriginal) => {
  const real = await importOriginal<typeof SessionStoreModule>();
  const proto = real.SessionStore.prototype;
  const { resume, appendExchange, branch } = proto;
  proto.resume = function (this: InstanceType<typeof real.SessionStore>, id: number) {
    const resumed = resume.call(this, id);
    const p = patch()?.resumedMessages;
    return p ? { ...resumed, history: { messages: p(resumed.history.messages) } } : resumed;
  };
  proto.appendExchange = function (this: InstanceType<typeof real.SessionStore>, ...args) {
    const [id, messages, update] = args;
    return appendExchange.call(this, id, messages, patch()?.appendWithoutVerdicts ? {} : update);
  } as typeof appendExchange;
  proto.branch = function (this: InstanceType<typeof real.SessionStore>, id: number, atTurn: number) {
    const child = branch.call(this, id, atTurn);
    const column = patch()?.branchWithout;
    if (column) this.db.prepare(`UPDATE turns SET ${column} = NULL WHERE session_id = ?`).run(child);
    return child;
  };
  return real;
});

vi.mock('../../src/engine/policy/route-for-target.js', async (importOriginal) => {
  const real = await importOriginal<typeof RouteForTargetModule>();
  return {
    ...real,
    routeForTarget: (...args: Parameters<typeof real.routeForTarget>) => {
      const p = patch()?.resolve;
      return p ? p(real.routeForTarget)(...args) : real.routeForTarget(...args);
    },
  };
});

const loaded = loadMatrixInputs({});

/**
 * The behaviours the narrowed matrix fails, with the first detail of each. `others`: every scenario but the bug's
 * own (a held-out bug must pass them all). `exceptTarget`: every scenario, on every target of the bug's routes but
 * that one (a bug held out by its target must pass them all).
 */
async function failures(
  bug: SeededBug | undefined,
  narrow: SeededBug,
  others = false,
  exceptTarget?: string,
): Promise<Map<Behaviour, string>> {
  state.bug = bug;
  try {
    const routes = checkScope(loaded, narrow.providers, undefined)!;
    const scenarios = exceptTarget
      ? loaded.scenarios
      : others
        ? loaded.scenarios.filter((s) => !narrow.scenarios!.includes(s.id))
        : narrow.scenarios
          ? loaded.scenarios.filter((s) => narrow.scenarios!.includes(s.id))
          : loaded.scenarios;
    const run = await runMatrix({ routes, engine: builtInEngine }, { ...loaded, scenarios });
    const out = new Map<Behaviour, string>();
    for (const cell of run.cells.filter((c) => c.target !== exceptTarget))
      for (const check of cell.checks)
        if (check.status === 'fail' && !out.has(check.behaviour))
          out.set(check.behaviour, `${cell.target} × ${cell.scenario}: ${check.detail.split('\n')[0]}`);
    return out;
  } finally {
    state.bug = undefined;
  }
}

/**
 * The real engine over every scenario on the routes of every provider any bug names, run once and shared: a bug's
 * narrowed matrix (its routes, its scenarios) is a part of it, and must pass there before the bug is applied. Each
 * test used to run its own narrowed matrix clean; 58 of them repeated the same cells.
 */
let clean: Promise<Awaited<ReturnType<typeof runMatrix>>> | undefined;
async function cleanFailures(narrow: SeededBug): Promise<string[]> {
  clean ??= (async () => {
    state.bug = undefined;
    const providers = [...new Set(SEEDED_BUGS.flatMap((b) => b.providers))];
    return runMatrix({ routes: checkScope(loaded, providers, undefined)!, engine: builtInEngine }, loaded);
  })();
  const routes = checkScope(loaded, narrow.providers, undefined)!;
  const cells = (await clean).cells.filter(
    (c) => routes.has(c.route) && (!narrow.scenarios || narrow.scenarios.includes(c.scenario)),
  );
  expect(cells.length, `${narrow.id}: no cell of its routes and scenarios`).toBeGreaterThan(0);
  return cells.flatMap((c) =>
    c.checks.filter((k) => k.status === 'fail').map((k) => `${c.target} × ${c.scenario}: ${k.behaviour}`),
  );
}

const caught: string[] = [];

describe('seeded engine bugs: check alone catches each one, naming the rule it breaks', () => {
  afterAll(() => {
    console.log(
      `seeded engine bugs caught by check: ${caught.length}/${SEEDED_BUGS.length}` +
        ` (${SEEDED_BUGS.filter((b) => b.unreachable).length} no bundled target can exercise)`,
    );
  });

  for (const bug of SEEDED_BUGS) {
    it(`${bug.id}: ${bug.bug} -> ${bug.rule}`, async () => {
      // The same narrowed matrix passes on the real engine, so the failure below is the bug's.
      expect(await cleanFailures(bug)).toEqual([]);
      const failed = await failures(bug, bug);
      if (bug.unreachable) {
        // Not counted as caught: the bundled targets cannot exercise it (the reason is the bug's `unreachable`).
        expect([...failed.values()], `now reachable; drop \`unreachable\`: ${bug.unreachable}`).toEqual([]);
        return;
      }
      expect([...failed.keys()], [...failed.values()].join('\n')).toContain(bug.rule);
      // Held out: every other scenario of the same targets misses it, so the new scenario is what catches it.
      if (bug.heldOut) expect([...(await failures(bug, bug, true)).values()]).toEqual([]);
      // Held out by target: the same bug on every other target of its routes, every scenario, misses it.
      if (bug.heldOutTarget) expect([...(await failures(bug, bug, false, bug.heldOutTarget)).values()]).toEqual([]);
      caught.push(bug.id);
    });
  }
});
