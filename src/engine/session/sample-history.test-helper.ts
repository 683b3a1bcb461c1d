import type { History } from '../../shared/history/history.js';

/**
 * A history holding every carrier kind the canonical model has, including the edge cases storage
 * must keep apart: a `" "` pad, an empty string, a signed item with extra keys, Anthropic-shaped
 * items, a native record, unicode. Shared by the session, compaction and retention tests.
 */
export function sampleHistoryWithEveryCarrier(): History {
  return {
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'Two cities; call the tool twice. ☂️ “quoted”',
        reasoning: 'Two cities; call the tool twice. ☂️ “quoted”',
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'Two cities',
            signature: 'c2lnLTE=',
            format: 'anthropic-claude-v1',
            index: 0,
            extra_key: { z: 1, a: [2, 3] },
          },
          {
            type: 'reasoning.encrypted',
            data: 'ZW5jcnlwdGVkLWJsb2I=',
            id: 'rs_1',
            format: 'openai-responses-v1',
            index: 1,
          },
        ],
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '21C sunny' },
      { role: 'tool', tool_call_id: 'call_2', content: '4C rain' },
      {
        role: 'assistant',
        content: 'Paris 21C, Oslo 4C.',
        reasoning_details: [
          { type: 'thinking', thinking: 'Summarize both.', signature: 'RXF1YWxseVNpZ25lZA==' },
          { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
        ],
        native: { route: 'gemini', fields: { thoughtSignature: 'Z2VtaW5pLXNpZw==' } },
        produced_by: { model: 'claude-fable-5-1', upstream: 'anthropic' },
      },
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
      {
        role: 'assistant',
        content: '',
        reasoning_content: ' ',
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'forecast', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_3', content: 'unknown' },
      { role: 'assistant', content: 'No forecast available.', reasoning_content: '', name: 'helper' },
    ],
  };
}
