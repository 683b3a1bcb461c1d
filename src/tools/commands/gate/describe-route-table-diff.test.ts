import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { describeRouteTableDiff } from './describe-route-table-diff.js';

const base = loadRouteTable();
const edit = (change: (t: RouteTable) => void): RouteTable => {
  const t = structuredClone(base);
  change(t);
  return t;
};
const at = (t: RouteTable, id: string) => t.routes.find((r) => r.id === id)!;
const texts = (t: RouteTable) => describeRouteTableDiff(base, t).map((c) => c.text);

describe('describeRouteTableDiff', () => {
  it('says nothing about an unchanged table', () => {
    expect(describeRouteTableDiff(base, structuredClone(base))).toEqual([]);
  });

  it('says which fields a route now receives or no longer receives, pointing at the new field', () => {
    const t = edit((t) => at(t, 'mistral').fields.push('reasoning_details'));
    const [change] = describeRouteTableDiff(base, t);
    const i = t.routes.findIndex((r) => r.id === 'mistral');
    expect(change).toEqual({
      route: 'mistral',
      kind: 'fields',
      pointer: `/routes/${i}/fields/0`,
      behavioural: true,
      text: 'route mistral now receives reasoning_details',
    });
    expect(texts(edit((t) => at(t, 'novita').fields.push('reasoning')))).toEqual([
      'route novita now also receives reasoning',
    ]);
    expect(texts(edit((t) => (at(t, 'openrouter').fields = ['reasoning_content'])))).toEqual([
      'route openrouter no longer receives reasoning, reasoning_details',
    ]);
  });

  it('says a tier move in words', () => {
    expect(texts(edit((t) => (at(t, 'deepseek').tier = 'standard')))).toEqual([
      'route deepseek moved from must-echo to standard',
    ]);
  });

  it('reports added and removed routes, and only the route that moved on a reorder', () => {
    const moved = edit((t) => {
      const [deepseek] = t.routes.splice(
        t.routes.findIndex((r) => r.id === 'deepseek'),
        1,
      );
      t.routes.unshift(deepseek!);
    });
    const changes = describeRouteTableDiff(base, moved);
    expect(changes.map((c) => [c.route, c.kind])).toEqual([['deepseek', 'reordered']]);
    expect(changes[0]!.text).toMatch(/^route deepseek reordered: position \d+ -> 1/);

    const added = edit((t) =>
      t.routes.splice(1, 0, {
        id: 'acme',
        label: 'Acme',
        match: { providers: ['acme'] },
        family: 'openai-chat',
        tier: 'strict',
        fields: [],
      }),
    );
    expect(texts(added)).toEqual(['route acme added at position 2 (strict, openai-chat, receives no reasoning field)']);
    const removed = edit((t) =>
      t.routes.splice(
        t.routes.findIndex((r) => r.id === 'groq'),
        1,
      ),
    );
    expect(describeRouteTableDiff(base, removed)).toEqual([
      {
        route: 'groq',
        kind: 'removed',
        pointer: '/routes',
        behavioural: true,
        text: 'route groq removed (was strict, openai-chat, receives no reasoning field); its providers now fall through to later routes',
      },
    ]);
  });

  it('describes match, flag, native and policy changes, and marks docs-only changes as not behavioural', () => {
    const t = edit((t) => {
      at(t, 'groq').match.providers!.push('groq-eu');
      at(t, 'zai-glm').flags = [];
      at(t, 'kimi').flags![0]!.set = { thinking: { type: 'enabled', keep: 'last' } };
      at(t, 'default').native = 'copilot';
      at(t, 'default').modelPolicies = [{ models: ['claude'], policy: 'strip' }];
      at(t, 'fireworks').notes = 'changed';
    });
    const changes = describeRouteTableDiff(base, t);
    expect(changes.map((c) => c.text)).toEqual([
      'route groq now also matches provider groq-eu',
      expect.stringMatching(
        /^route kimi now sets \{"thinking":\{"type":"enabled","keep":"last"\}\} for models matching \/kimi.*\/ from \d/,
      ),
      expect.stringMatching(
        /^route kimi no longer sets \{"thinking":\{"type":"enabled","keep":"all"\}\} for models matching \/kimi.*\/ from \d/,
      ),
      'route fireworks notes changed (no behaviour change)',
      ...at(base, 'zai-glm').flags!.map((f) =>
        expect.stringMatching(
          new RegExp(`^route zai-glm no longer sets ${JSON.stringify(f.set).replace(/[{}]/g, '\\$&')}`),
        ),
      ),
      'route default now receives the native record "copilot"',
      'route default now replays models containing claude with policy strip',
    ]);
    expect(changes.find((c) => c.kind === 'docs')!.behavioural).toBe(false);
  });

  it('describes an upstream-model rule change as a tier change of each route it lists', () => {
    const rule = base.upstreamModels![0]!;
    const dropped = edit((t) => t.upstreamModels![0]!.on.splice(0, 1));
    expect(describeRouteTableDiff(base, dropped).map((c) => [c.route, c.kind])).toEqual([[rule.on[0]!.route, 'tier']]);
    const widened = edit(
      (t) => (t.upstreamModels![0]!.models = [...(t.upstreamModels![0]!.models ?? []), 'deepseek-v5']),
    );
    expect(
      describeRouteTableDiff(base, widened)
        .map((c) => c.route)
        .sort(),
    ).toEqual(rule.on.map((o) => o.route).sort());
    const sourcesOnly = edit((t) => t.upstreamModels![0]!.on[0]!.sources.push('https://example.com/more'));
    expect(describeRouteTableDiff(base, sourcesOnly)).toEqual([]);
  });

  test('a pure reorder reports only reorders, and fewer moves than routes', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          base.routes.map((_, i) => i),
          { minLength: base.routes.length, maxLength: base.routes.length },
        ),
        (order) => {
          const shuffled = { ...base, routes: order.map((i) => base.routes[i]!) };
          const changes = describeRouteTableDiff(base, shuffled);
          expect(changes.every((c) => c.kind === 'reordered')).toBe(true);
          const same = order.every((v, i) => v === i);
          expect(changes.length === 0).toBe(same);
          expect(changes.length).toBeLessThan(base.routes.length);
        },
      ),
    );
  });
});
