import { describe, expect, it } from 'vitest';
import type { History } from '../../shared/history/history.js';
import { removeDroppedThinking } from './without-dropped-thinking.js';

describe('removeDroppedThinking', () => {
  it('takes out exactly the blocks named by signature; text, calls and other blocks stay verbatim', () => {
    const history: History = {
      messages: [
        { role: 'user', content: 'a' },
        {
          role: 'assistant',
          content: 'ok',
          tool_calls: [{ id: 'u1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          reasoning_details: [
            { type: 'thinking', thinking: 'one', signature: 'SIG-A' },
            { type: 'thinking', thinking: 'two', signature: 'SIG-B' },
          ],
        },
        {
          role: 'assistant',
          content: 'later',
          reasoning_details: [{ type: 'thinking', thinking: 'x', signature: 'SIG-A' }],
        },
      ],
    };
    expect(removeDroppedThinking(history, ['SIG-A'])).toBe(2);
    expect(history.messages[1]!.reasoning_details).toEqual([{ type: 'thinking', thinking: 'two', signature: 'SIG-B' }]);
    expect(history.messages[1]!.tool_calls).toHaveLength(1);
    expect(history.messages[2]).toEqual({ role: 'assistant', content: 'later' });
    expect(removeDroppedThinking(history, [])).toBe(0);
  });
});
