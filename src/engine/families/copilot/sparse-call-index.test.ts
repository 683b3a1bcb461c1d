import { expect, it } from 'vitest';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { readCopilotStream } from './stream-carriers.js';

// Copilot's captures number tool calls densely from 0, but the chat wire only promises that an
// index names one call: a stream whose only call is index 1 must keep its thought signature.
const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] }),
});

it('ties a thought signature to its call by wire index, also when the indexes are sparse', () => {
  const answer = readCopilotStream([
    chunk({ reasoning_opaque: 'OPAQUE' }),
    chunk({
      tool_calls: [{ index: 1, id: 'call_b', function: { name: 'ls', arguments: '{}', thought_signature: 'SIG' } }],
    }),
    chunk({}, 'tool_calls'),
    { data: '[DONE]' },
  ]);
  expect(answer.message.tool_calls).toHaveLength(1);
  expect(answer.carriers.native?.fields).toMatchObject({ thought_signature: 'SIG', thought_signature_call: 0 });
});

it('ties it to the second call when the signature streams under the second index', () => {
  const answer = readCopilotStream([
    chunk({ tool_calls: [{ index: 3, id: 'call_a', function: { name: 'ls', arguments: '{}' } }] }),
    chunk({
      tool_calls: [{ index: 7, id: 'call_b', function: { name: 'cat', arguments: '{}', thought_signature: 'SIG' } }],
    }),
    chunk({}, 'tool_calls'),
    { data: '[DONE]' },
  ]);
  expect(answer.carriers.native?.fields).toMatchObject({ thought_signature: 'SIG', thought_signature_call: 1 });
});
