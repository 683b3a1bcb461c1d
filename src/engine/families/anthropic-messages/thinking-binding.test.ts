import { describe, expect, it } from 'vitest';
import { routeForTarget } from '../../policy/route-for-target.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { History, Message } from '../../../shared/history/history.js';
import { boundPrefixChanged, convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

const table = loadRouteTable();
const policy = (model: string) => routeForTarget(table, { provider: 'anthropic', host: 'api.anthropic.com', model });
const turn = (signature: string): Message => ({
  role: 'assistant',
  content: 'ok',
  reasoning_details: [{ type: 'thinking', thinking: `thought ${signature}`, signature }],
});
const history: History = {
  messages: [
    { role: 'system', content: 'You are a travel assistant.' },
    { role: 'user', content: 'Bergen?' },
    turn('sig-before'),
    { role: 'system', content: 'Today is 2026-12-07.' },
    { role: 'user', content: 'Oslo?' },
    turn('sig-after'),
    { role: 'user', content: 'Thanks.' },
  ],
};
const sent = (model: string) => JSON.stringify(convertToAnthropicMessages(history, policy(model)));

describe('thinking bound to its prefix (route table thinkingBinding)', () => {
  it('the table says which models bind', () => {
    expect(policy('claude-fable-5-1').bindsThinking).toBe(true);
    expect(policy('claude-fable-5-2').bindsThinking).toBe(true);
    expect(policy('claude-opus-5').bindsThinking).toBeUndefined();
    expect(policy('claude-fable-5').bindsThinking).toBeUndefined();
  });

  it('Fable 5.1: thinking produced before a system-prompt change is left out; thinking after it stays', () => {
    expect(boundPrefixChanged(history, policy('claude-fable-5-1'))).toBe(3);
    expect(sent('claude-fable-5-1')).not.toContain('sig-before');
    expect(sent('claude-fable-5-1')).toContain('sig-after');
  });

  it('a model that does not bind gets every block; a system prompt set once changes nothing', () => {
    expect(sent('claude-opus-5')).toContain('sig-before');
    const once: History = { messages: history.messages.filter((_, i) => i !== 3) };
    expect(boundPrefixChanged(once, policy('claude-fable-5-1'))).toBe(-1);
    expect(JSON.stringify(convertToAnthropicMessages(once, policy('claude-fable-5-1')))).toContain('sig-before');
  });
});
