import { describe, expect, it } from 'vitest';
import type { History, Message } from '../../shared/history/history.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { CHECKPOINT_MARKER, isCheckpoint, makeCheckpoint } from './checkpoint.js';
import { compress } from './compress.js';
import { estimateTokens, jsonSize, needsCompaction, priceMessage } from './estimate-tokens.js';

const table = loadRouteTable();
const deepseek = resolveRoute(table, { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' });
const groq = resolveRoute(table, { provider: 'groq', host: 'api.groq.com', model: 'm' });
const openrouter = resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model: 'm' });

function toolExchange(n: number, thinking = `thinking about step ${n} `.repeat(20)): Message[] {
  return [
    { role: 'user', content: `step ${n}: do the thing` },
    {
      role: 'assistant',
      content: null,
      reasoning_content: thinking,
      reasoning_details: [{ type: 'reasoning.encrypted', data: `b3BhcXVl${n}`.repeat(10), index: 0 }],
      tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'run', arguments: `{"n":${n}}` } }],
    },
    { role: 'tool', tool_call_id: `c${n}`, content: `result ${n} `.repeat(40) },
    { role: 'assistant', content: `done ${n}`, reasoning_content: `wrap up ${n}` },
  ];
}

const longHistory = (exchanges: number): History => ({
  messages: [
    { role: 'system', content: 'system prompt' },
    ...Array.from({ length: exchanges }, (_, i) => toolExchange(i + 1)).flat(),
  ],
});

describe('estimateTokens', () => {
  it('prices carriers as the route would send them', () => {
    const [, assistant] = toolExchange(1);
    expect(priceMessage(assistant!, groq)).toBeLessThan(priceMessage(assistant!, openrouter));
    // OpenRouter also gets `reasoning` (aliased from reasoning_content): it pays for the text twice.
    expect(priceMessage(assistant!, openrouter)).toBe(
      priceMessage({ ...assistant!, reasoning: assistant!.reasoning_content! }),
    );
    const bare: Message = { role: 'assistant', content: null, tool_calls: assistant!.tool_calls! };
    expect(priceMessage(bare, deepseek)).toBe(priceMessage({ ...bare, reasoning_content: ' ' }));
  });

  it('prices opaque carriers by size (the same function for preflight and tail walk)', () => {
    const m: Message = { role: 'assistant', content: 'x' };
    const withBlob: Message = { ...m, reasoning_details: [{ type: 'reasoning.encrypted', data: 'A'.repeat(4000) }] };
    expect(priceMessage(withBlob) - priceMessage(m)).toBeGreaterThan(1000);
  });
});

describe('compress', () => {
  it('leaves a history within budget alone (same object)', () => {
    const h = longHistory(2);
    const r = compress(h, 1e9);
    expect(r.status).toBe('unchanged');
    expect(r.history).toBe(h);
  });

  it('fits the budget, keeps the live turn and every kept message as the same object', () => {
    const h = longHistory(40);
    const snapshot = JSON.stringify(h);
    const budget = Math.floor(estimateTokens(h) / 4);
    const r = compress(h, budget);
    expect(r.status).toBe('compacted');
    expect(r.estimateAfter).toBeLessThanOrEqual(budget);
    expect(estimateTokens(r.history)).toBe(r.estimateAfter);
    expect(needsCompaction(r.history, budget)).toBe(false);
    expect(compress(r.history, budget).status).toBe('unchanged');
    expect(JSON.stringify(h)).toBe(snapshot);
    expect(r.history.messages[0]).toBe(h.messages[0]);
    expect(isCheckpoint(r.history.messages[1]!)).toBe(true);
    expect(r.history.messages[2]!.role).not.toBe('tool');
    for (const [i, from] of r.kept.entries()) if (from !== null) expect(r.history.messages[i]).toBe(h.messages[from]);
    expect(r.history.messages.slice(-4)).toEqual(h.messages.slice(-4));
    expect(r.kept.filter((k) => k === null)).toHaveLength(1);
  });

  it('drops only a checkpoint shadowed by a newer one, and only before the last user message', () => {
    const older = makeCheckpoint('older');
    const newer = makeCheckpoint('newer');
    const afterUser = makeCheckpoint('after the last user message');
    const h: History = {
      messages: [
        { role: 'system', content: 's' },
        older,
        ...toolExchange(1),
        newer,
        ...toolExchange(2),
        afterUser,
        { role: 'assistant', content: 'x'.repeat(4000) },
      ],
    };
    const r = compress(h, estimateTokens(h) - 1, { summaryTokens: 16 });
    expect(r.history.messages).not.toContain(older);
    expect(r.history.messages).toContain(afterUser);
    expect(
      r.history.messages.filter((m) => m.reasoning_content !== undefined).every((m) => h.messages.includes(m)),
    ).toBe(true);
  });

  it('reports why it cannot reach the budget instead of looping', () => {
    const h = longHistory(3);
    h.messages.push({ role: 'user', content: 'huge question '.repeat(2000) });
    const r = compress(h, 500);
    expect(r.status).toBe('over-budget');
    expect(r.reason).toMatch(/live turn .* never dropped/);
    const again = compress(r.history, 500);
    expect(again.status).toBe('over-budget');
    expect(again.estimateAfter).toBeLessThanOrEqual(r.estimateAfter);
    expect(again.history.messages.at(-1)).toBe(h.messages.at(-1));
  });

  it('salvage clears old tool outputs but the two newest, never a carrier', () => {
    const live: Message[] = [{ role: 'user', content: 'go' }];
    for (let n = 1; n <= 4; n++) {
      live.push({
        role: 'assistant',
        content: null,
        reasoning_content: `r${n}`,
        tool_calls: [{ id: `t${n}`, type: 'function', function: { name: 'f', arguments: '{}' } }],
      });
      live.push({ role: 'tool', tool_call_id: `t${n}`, content: 'output '.repeat(200) });
    }
    const h: History = { messages: [{ role: 'system', content: 's' }, ...live] };
    const r = compress(h, estimateTokens(h) - 10);
    expect(r.salvaged).toBe(true);
    const tools = r.history.messages.filter((m) => m.role === 'tool');
    expect(tools.slice(0, 2).every((m) => String(m.content).startsWith('[tool output cleared'))).toBe(true);
    expect(tools.slice(2)).toEqual(live.filter((m) => m.role === 'tool').slice(2));
    expect(r.history.messages.filter((m) => m.role === 'assistant')).toEqual(
      live.filter((m) => m.role === 'assistant'),
    );
  });

  it('never cuts a tool result off from its call, and gives a checkpoint the marker', () => {
    const h = longHistory(30);
    for (const budget of [800, 1200, 2000, 3500]) {
      const r = compress(h, budget, { summaryTokens: 64 });
      const firstAfterCheckpoint = r.history.messages.findIndex((m, i) => i > 0 && !isCheckpoint(m));
      expect(r.history.messages[firstAfterCheckpoint]!.role).not.toBe('tool');
      const cp = r.history.messages.find(isCheckpoint)!;
      expect(String(cp.content).startsWith(CHECKPOINT_MARKER)).toBe(true);
      expect(priceMessage(cp)).toBeLessThanOrEqual(64);
    }
  });

  it('does not re-summarize a head that is only a checkpoint (found by the property test: it grew each pass)', () => {
    const h: History = {
      messages: [makeCheckpoint('massa'), { role: 'user', content: 'sed' }, ...toolExchange(1).slice(1)],
    };
    let current = h;
    let last = estimateTokens(h);
    for (let pass = 0; pass < 3; pass++) {
      const r = compress(current, Math.floor(estimateTokens(h) * 0.94));
      expect(r.estimateAfter).toBeLessThanOrEqual(last);
      last = r.estimateAfter;
      current = r.history;
    }
    expect(current.messages[0]).toBe(h.messages[0]);
  });
});

describe('jsonSize', () => {
  it('is the compact JSON length for values without escapes', () => {
    for (const v of [
      null,
      0,
      12.5,
      true,
      'abc',
      [],
      {},
      [1, 'a', null],
      { a: 1, b: [true, { c: 'd' }] },
      [{ type: 'reasoning.encrypted', data: 'QUJD', index: 0 }],
    ]) {
      expect(jsonSize(v)).toBe(JSON.stringify(v).length);
    }
    expect(jsonSize({ a: undefined, b: 1 })).toBe(JSON.stringify({ a: undefined, b: 1 }).length);
  });
});
