import fc from 'fast-check';
import { implementedFamilies } from '../src/engine/families/registry.js';
import type { History, Message } from '../src/shared/history/history.js';
import { aHistory } from '../test/helpers/history-arbitraries.test-helper.js';
import { replayForRoute } from '../src/engine/replay/replay-for-route.js';
import { loadRouteTable } from '../src/shared/route-table/load-route-table.js';
import { resolveRoute } from '../src/shared/route-table/resolve-route.js';
import type { RoutePolicy } from '../src/shared/route-table/route-table.js';
import { sampleTargetForRoute } from '../src/shared/route-table/sample-target.js';
import type { BenchFigure } from './figure.js';
import { pairedSync, round } from './timing.js';

export const REPLAY_TURNS = 10_000;
const GOAL = 3;
const SCREEN_ROUNDS = 2;
/** Runs per timed sample: one build is ~10-50 ms, too short to average out a scavenge or two. */
const REPEAT = 3;

/**
 * A 10,000-message history from the shared generators (fixed seed, so every run measures the same
 * bytes): user turns, tool loops and answers whose assistant turns hold every carrier kind at once
 * (reasoning_content, reasoning, reasoning_details of both shapes, a native record). Whole
 * conversations are concatenated, never cut, so no tool result loses its call.
 */
export function aLongHistory(turns = REPLAY_TURNS, seed = 7): History {
  const messages: Message[] = [];
  const batch = fc.sample(aHistory, { seed, numRuns: Math.ceil(turns / 4) });
  for (let i = 0; messages.length < turns; i++) {
    const conversation = batch[i % batch.length]!.messages;
    if (messages.length + conversation.length > turns) break;
    messages.push(...structuredClone(conversation));
  }
  while (messages.length < turns) messages.push({ role: 'user', content: `filler ${messages.length}` });
  return { messages };
}

/** Every route of the bundled table whose family is implemented, as the policy its sample target resolves to. */
function policiesByFamily(): Map<string, RoutePolicy[]> {
  const table = loadRouteTable();
  const families = new Set<string>(implementedFamilies());
  const out = new Map<string, RoutePolicy[]>();
  for (const route of table.routes) {
    if (!families.has(route.family)) continue;
    const policy = resolveRoute(table, sampleTargetForRoute(route));
    if (policy.routeId !== route.id) continue;
    const list = out.get(route.family) ?? [];
    // Routes that differ only in name and target run the same code on the same input: measure one.
    const shape = (p: RoutePolicy) => JSON.stringify({ ...p, routeId: '', label: '', target: null });
    if (!list.some((p) => shape(p) === shape(policy))) out.set(route.family, [...list, policy]);
  }
  return out;
}

/**
 * Replay engine cost per wire family: history -> route policy -> request body -> the bytes that go
 * on the wire, against the floor of serializing the same history once (JSON.stringify). Each family
 * is judged on its slowest route (an aggregator that forwards every carrier is the heavy case).
 *
 * What the object-argument families (gemini, anthropic-messages, bedrock-converse) spend beyond the
 * floor is mostly their wire's shape, not the engine: a functionCall's args / a tool_use's input is
 * a JSON object, so each of the history's 3,264 argument strings is parsed (and serialized again
 * with the body). The generated arguments have random keys, so nearly every one gets a hidden class
 * of its own, and the full collection before each sample drops them: JSON.parse of all of them
 * costs ~7.5 ms here against ~3.7 ms with their shapes alive (the floor is ~13 ms). Profiled with
 * node --cpu-prof for issue 10: JSON.parse is over half of the Gemini build, no other step over ~5%.
 */
export function benchReplayEngine(options: { rounds?: number; turns?: number } = {}): BenchFigure[] {
  const rounds = options.rounds ?? 7;
  const history = aLongHistory(options.turns ?? REPLAY_TURNS);
  const historyBytes = JSON.stringify(history).length;
  const figures: BenchFigure[] = [];
  for (const [family, policies] of policiesByFamily()) {
    const routes: Record<string, unknown> = {};
    let bodyBytes = 0;
    const measure = (policy: RoutePolicy, n: number) =>
      pairedSync(
        () => (bodyBytes = JSON.stringify(replayForRoute(history, policy).body).length),
        () => JSON.stringify(history),
        n,
        REPEAT,
      );
    // A short screening pass over every route finds the slowest; that one is then measured properly,
    // so the figure is not the luckiest-worst of many noisy samples.
    let slowest = { policy: policies[0]!, ratio: 0 };
    for (const policy of policies) {
      const screen = measure(policy, policies.length > 1 ? SCREEN_ROUNDS : rounds);
      routes[policy.routeId] = { screeningRatio: round(screen.ratio), bodyBytes };
      if (screen.ratio > slowest.ratio) slowest = { policy, ratio: screen.ratio };
    }
    const timing = measure(slowest.policy, rounds);
    const worst = { route: slowest.policy.routeId, ...timing };
    figures.push({
      id: `replay-engine/${family}`,
      figure: `replay engine, ${family}: build + serialize the request for a ${history.messages.length}-turn multi-carrier history vs JSON.stringify of the history (slowest route: ${worst.route})`,
      measured: round(worst.ratio),
      unit: 'x',
      goal: `<= ${GOAL}x`,
      met: worst.ratio <= GOAL,
      details: {
        turns: history.messages.length,
        historyBytes,
        rounds,
        slowestRoute: worst.route,
        buildMs: round(worst.subjectMs),
        stringifyMs: round(worst.floorMs),
        bodyBytes,
        routes,
      },
    });
  }
  return figures;
}
