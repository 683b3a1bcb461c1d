import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';

/** A scripted function call, as the answer kinds and the tests built on them write one. */
export const toolCall = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

/**
 * The kinds of answer a mock renders, each once: text, reasoning with text, reasoning with a tool call, parallel
 * calls without reasoning, empty reasoning and text. What the answers are held against a schema with (the providers'
 * own definitions, other projects' suites).
 */
export const ANSWER_KINDS: Readonly<Record<string, ScriptedAnswer>> = {
  text: { content: 'Hello from the mock.' },
  'reasoning and text': { reasoning: 'The user greets me.', content: 'Hello.' },
  'reasoning and a tool call': {
    reasoning: 'I need the weather.',
    content: null,
    tool_calls: [toolCall('call_1', 'get_weather', '{"city":"Paris"}')],
  },
  'parallel tool calls, no reasoning': {
    tool_calls: [toolCall('call_1', 'get_weather', '{"city":"Paris"}'), toolCall('call_2', 'get_time', '{}')],
  },
  'empty reasoning, no text': { reasoning: '', content: '' },
};
