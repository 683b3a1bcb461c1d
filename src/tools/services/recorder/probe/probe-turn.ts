import type { History } from '../../../../shared/history/history.js';

/**
 * The smallest conversation that exercises reasoning replay: a user turn, an assistant tool call
 * that carries reasoning in every standard carrier, and the tool's result. The probe sends it with
 * one carrier at a time (the route policy decides which travels), and with none.
 */
export const PROBE_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_time',
      description: 'Current time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

const REASONING = 'The user asks for the time in Oslo; I should call get_time.';

export function probeHistory(): History {
  return {
    messages: [
      { role: 'user', content: 'What time is it in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_probe_1', type: 'function', function: { name: 'get_time', arguments: '{"city":"Oslo"}' } },
        ],
        reasoning_content: REASONING,
        reasoning: REASONING,
        // Unsigned and of unknown format on purpose: it claims nothing a provider could verify.
        reasoning_details: [{ type: 'reasoning.text', text: REASONING, format: 'unknown', index: 0 }],
      },
      { role: 'tool', tool_call_id: 'call_probe_1', content: '{"time":"14:05"}' },
    ],
  };
}
