import { describe, expect, it } from 'vitest';
import { selectCarriers } from '../../src/engine/policy/select-carriers.js';
import { routeDeliveries } from '../../src/judge/harm/route-delivery.js';
import type { Message } from '../../src/shared/history/history.js';
import { defaultRoutesFile, loadRouteTable } from '../../src/shared/route-table/load-route-table.js';
import type { RoutePolicy } from '../../src/shared/route-table/route-table.js';
import { familyDescriptor } from '../../src/shared/wire/families.js';

/**
 * The harm judge reads a row with its own code (route-delivery), the engine with its own
 * (select-carriers). Issue 27: they disagreed on a must-echo row without reasoning_content (the
 * judge saw the reasoning travel, the engine sent the pad), so the judge called the loss harmless.
 * For every chat-shaped row of the bundled table and every subset of its fields, both readings of
 * one tool-call turn that holds readable reasoning must agree on what carries reasoning and what is
 * a pad. (A turn holding only typed items gets their text on a must-echo row: a separate rule.)
 */
const TOOL_TURN: Message = {
  role: 'assistant',
  content: null,
  reasoning_content: 'stored reasoning',
  reasoning: 'stored reasoning',
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
};

const subsets = <T>(xs: readonly T[]): T[][] =>
  xs.reduce<T[][]>((acc, x) => acc.concat(acc.map((s) => [...s, x])), [[]]);

describe('the harm judge and the engine read a chat row the same way', () => {
  it('for every row and every subset of its fields: the same carriers carry reasoning, the same pad', () => {
    const table = loadRouteTable(defaultRoutesFile());
    const disagreements: string[] = [];
    let compared = 0;
    for (const route of table.routes) {
      if (familyDescriptor(route.family).reasoningOnWire.kind !== 'message-keys') continue;
      for (const fields of subsets(route.fields)) {
        const policy = {
          routeId: route.id,
          tier: route.tier,
          family: route.family,
          fields,
          flags: {},
        } as unknown as RoutePolicy;
        const engine = selectCarriers(TOOL_TURN, policy);
        const sent = Object.entries(engine)
          .filter(([k, v]) => k !== 'padded' && k !== 'native' && v !== undefined)
          .map(([k]) => `${k}${k === 'reasoning_content' && engine.padded ? ' (pad)' : ''}`)
          .sort();
        const judged = routeDeliveries(policy)
          .filter((d) => d.messageKey && d.carrier in TOOL_TURN)
          .map((d) => `${d.carrier}${d.padOnly ? ' (pad)' : ''}`)
          .sort();
        compared++;
        if (JSON.stringify(sent) !== JSON.stringify(judged))
          disagreements.push(
            `route ${route.id} fields [${fields.join(', ')}]: engine ${sent.join(', ')}; judge ${judged.join(', ')}`,
          );
      }
    }
    expect(compared).toBeGreaterThan(0);
    expect(disagreements).toEqual([]);
  });
});
