import { describe, expect, it } from 'vitest';
import type { History, Message, ToolCall } from '../../../shared/history/history.js';
import { replayForRoute } from '../../replay/replay-for-route.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';

const gemini = resolveRoute(loadRouteTable(), {
  provider: 'gemini',
  host: 'generativelanguage.googleapis.com',
  model: 'gemini-3-pro-preview',
});

/**
 * `exchanges` steps of a call and a result whose id no call has (its call was compacted away, or
 * the history was imported), with every read of a message's tool_calls counted.
 */
function orphanResults(exchanges: number): { history: History; reads: () => number } {
  let reads = 0;
  const counted = (message: Message, calls: ToolCall[] | undefined): Message =>
    Object.defineProperty(message, 'tool_calls', {
      enumerable: calls !== undefined,
      get: () => {
        reads += 1;
        return calls;
      },
    });
  const messages: Message[] = [counted({ role: 'user', content: 'go' }, undefined)];
  for (let n = 0; n < exchanges; n++) {
    messages.push(
      counted({ role: 'assistant', content: null }, [
        { id: `c${n}`, type: 'function', function: { name: 'run', arguments: '{}' } },
      ]),
      counted({ role: 'tool', tool_call_id: `gone${n}`, name: 'lookup', content: 'ok' }, undefined),
    );
  }
  return { history: { messages }, reads: () => reads };
}

const responseNames = (body: Record<string, unknown>) =>
  (body.contents as { parts: Record<string, { name: string } | undefined>[] }[]).flatMap((c) =>
    c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.name] : [])),
  );

describe('gemini request pairs tool results with their calls in one pass', () => {
  // Counts reads, not time: a result whose id no earlier call has used to send a search back to the
  // first message, once per result, so a long history of them cost reads quadratic in its length.
  it.each([100, 1000])('%i results whose call is gone: a few reads of tool_calls per message', (exchanges) => {
    const { history, reads } = orphanResults(exchanges);
    const body = replayForRoute(history, gemini).body;
    // Nothing names their call, so each result goes out under its own name.
    expect(responseNames(body)).toEqual(Array.from({ length: exchanges }, () => 'lookup'));
    expect(reads()).toBeLessThanOrEqual(4 * history.messages.length);
  });

  it('10x the results, at most ~10x the reads', () => {
    const count = (exchanges: number) => {
      const { history, reads } = orphanResults(exchanges);
      replayForRoute(history, gemini);
      return reads();
    };
    expect(count(2000) / count(200)).toBeLessThan(10.5);
  });

  it('names a result after the nearest earlier call with its id, the first such call of that message', () => {
    const call = (id: string, name: string): ToolCall => ({
      id,
      type: 'function',
      function: { name, arguments: '{}' },
    });
    const history: History = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [call('a', 'older')] },
        { role: 'tool', tool_call_id: 'a', content: '1' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [call('b', 'other'), call('a', 'nearest'), call('a', 'second')],
        },
        { role: 'tool', tool_call_id: 'a', content: '2' },
        { role: 'tool', tool_call_id: 'zzz', content: '3' },
      ],
    };
    expect(responseNames(replayForRoute(history, gemini).body)).toEqual(['older', 'nearest', 'zzz']);
  });
});
