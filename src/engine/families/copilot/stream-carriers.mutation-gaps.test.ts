import { describe, expect, it } from 'vitest';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { copilotStreamCarriers, readCopilotStream } from './stream-carriers.js';

/**
 * Copilot's stream keeps the latest opaque and thought signature; the renderer-driven property
 * test never sends an empty one after a real one, a tool-call piece without its function, or a
 * route whose native record has another name. These cases do.
 */

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] }),
});
const call = (extra: Record<string, unknown> = {}, fn: Record<string, unknown> = {}) => ({
  tool_calls: [{ index: 0, id: 'call_a', function: { name: 'ls', arguments: '{}', ...fn }, ...extra }],
});
const END = [chunk({}, 'tool_calls'), { data: '[DONE]' }];

describe('copilot stream carriers', () => {
  it('never lets an empty opaque or signature replace the last real one', () => {
    const answer = readCopilotStream([
      chunk({ reasoning_opaque: 'OPAQUE' }),
      chunk(call({}, { thought_signature: 'SIG' })),
      chunk({ reasoning_opaque: '' }),
      chunk({ tool_calls: [{ index: 0, function: { thought_signature: '' } }] }),
      ...END,
    ]);
    expect(answer.carriers.native).toStrictEqual({
      route: 'copilot',
      fields: { reasoning_opaque: 'OPAQUE', thought_signature: 'SIG', thought_signature_call: 0 },
    });
  });

  it('ties a signature on an index-less tool-call piece to the first call', () => {
    const answer = readCopilotStream([
      chunk({ reasoning_opaque: 'OPAQUE' }),
      chunk({ tool_calls: [{ id: 'call_a', function: { name: 'ls', arguments: '{}', thought_signature: 'SIG' } }] }),
      ...END,
    ]);
    expect(answer.carriers.native?.fields).toMatchObject({ thought_signature: 'SIG', thought_signature_call: 0 });
  });

  it('reads a tool-call piece that has no function object', () => {
    const answer = readCopilotStream([
      chunk({ reasoning_opaque: 'OPAQUE' }),
      chunk(call()),
      chunk({ tool_calls: [{ index: 0, id: 'call_a' }] }),
      ...END,
    ]);
    expect(answer.message.tool_calls).toHaveLength(1);
    expect(answer.carriers.native?.fields).toStrictEqual({ reasoning_opaque: 'OPAQUE' });
  });

  it('files the native record under the route’s own name', () => {
    const policy = { native: 'copilot-enterprise' } as RoutePolicy;
    const events = [chunk({ reasoning_opaque: 'OPAQUE' }), chunk(call()), ...END];
    expect(readCopilotStream(events, policy).carriers.native?.route).toBe('copilot-enterprise');
    const live = copilotStreamCarriers(policy);
    live.feed(formatSse(events));
    expect(live.end().carriers.native?.route).toBe('copilot-enterprise');
    expect(readCopilotStream(events).carriers.native?.route).toBe('copilot');
  });
});
