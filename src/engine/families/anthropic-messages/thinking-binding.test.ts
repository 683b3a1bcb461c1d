import { describe, expect, it } from 'vitest';
import { routeForTarget } from '../../policy/route-for-target.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { History, Message } from '../../../shared/history/history.js';
import { boundPrefixChanged, convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { fromAnthropicMessagesResponse } from './from-response.js';
import { AnthropicStreamAccumulator } from './stream-carriers.js';
import { readStreamEvents } from '../stream-carriers.js';

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

describe('thinking bound to the model that wrote it (produced_by)', () => {
  const by = (model: string | undefined, signature: string): Message => ({
    ...turn(signature),
    ...(model !== undefined ? { produced_by: { model } } : {}),
  });
  const session = (model: string | undefined): History => ({
    messages: [
      { role: 'system', content: 'You are a travel assistant.' },
      { role: 'user', content: 'Bergen?' },
      by(model, 'sig-turn-1'),
      { role: 'user', content: 'Oslo?' },
    ],
  });
  const to = (history: History, model: string) => JSON.stringify(convertToAnthropicMessages(history, policy(model)));

  it('a block a binding model wrote goes back to that model only', () => {
    expect(to(session('claude-fable-5-1'), 'claude-fable-5-1')).toContain('sig-turn-1');
    expect(to(session('claude-fable-5-1'), 'claude-fable-5-2')).not.toContain('sig-turn-1');
    expect(to(session('claude-fable-5-1'), 'claude-opus-5')).not.toContain('sig-turn-1');
  });

  it('the turn itself stays: only its thinking is left out', () => {
    const sent = convertToAnthropicMessages(session('claude-fable-5-1'), policy('claude-fable-5-2'));
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
  });

  it('blocks of a model that does not bind, and of an unknown model, go to any model', () => {
    expect(to(session('claude-opus-5'), 'claude-fable-5-1')).toContain('sig-turn-1');
    expect(to(session(undefined), 'claude-fable-5-2')).toContain('sig-turn-1');
  });

  it('the model is compared whatever its case', () => {
    expect(to(session('Claude-Fable-5-1'), 'claude-fable-5-1')).toContain('sig-turn-1');
  });
});

describe('reading which model wrote a turn', () => {
  const thinking = { type: 'thinking', thinking: 'hm', signature: 'S1' };
  const text = { type: 'text', text: 'ok' };
  const ev = (payload: Record<string, unknown>) => ({ event: String(payload.type), data: JSON.stringify(payload) });

  it("an answer's model is kept with its reasoning; an answer without reasoning or model records none", () => {
    const read = (body: Record<string, unknown>) => fromAnthropicMessagesResponse(body).message.produced_by;
    expect(read({ model: 'claude-fable-5-1', content: [thinking, text] })).toEqual({ model: 'claude-fable-5-1' });
    expect(read({ model: 'claude-fable-5-1', content: [text] })).toBeUndefined();
    expect(read({ content: [thinking, text] })).toBeUndefined();
  });

  it("a stream's message_start names the model", () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [
      ev({ type: 'message_start', message: { model: 'claude-fable-5-2', content: [] } }),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'S1' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }),
      ev({ type: 'message_stop' }),
    ]);
    expect(answer.message.produced_by).toEqual({ model: 'claude-fable-5-2' });
  });
});
