import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { type Finding } from '../../shared/findings/finding.js';
import { readFindingsHeader } from '../../shared/findings/findings-record.js';
import { FixtureStore } from '../fixtures/fixture-store.js';
import { providerHandlers } from '../handlers/provider-handlers.js';
import { responsesInputAsChat } from './gateway-upstream-responses.js';

const nous = loadProviderSpecs().find((s) => s.id === 'nous-portal')!;
const handlers = providerHandlers(nous, new FixtureStore());

async function post(body: unknown, path = '/v1/responses') {
  const response = await getResponse(
    handlers,
    new Request(`https://inference-api.nousresearch.com${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return {
    status: response?.status,
    text: response ? await response.text() : '',
    findings: (response ? readFindingsHeader(response.headers, 'the gateway answer under test') : []) as Finding[],
  };
}

const call = { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"main.go"}' };
const reasoning = (text: string) => ({
  type: 'reasoning',
  id: 'rs_1',
  summary: [],
  content: [{ type: 'reasoning_text', text }],
});
const loop = (...assistant: unknown[]) => [
  { role: 'user', content: [{ type: 'input_text', text: 'Read main.go' }] },
  ...assistant,
  { type: 'function_call_output', call_id: 'call_1', output: 'package main' },
];

describe('Responses input read as the chat messages a gateway hands its upstream', () => {
  it('joins reasoning, assistant text and calls of one turn into one assistant message, and names the input index it starts at', () => {
    const { messages, inputIndex } = responsesInputAsChat(
      loop(
        reasoning('Open it.'),
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.' }] },
        call,
      ),
    );
    expect(messages).toEqual([
      { role: 'user', content: 'Read main.go' },
      {
        role: 'assistant',
        content: 'Reading.',
        reasoning_content: 'Open it.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"main.go"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'package main' },
    ]);
    expect(inputIndex).toEqual([0, 1, 4]);
    expect(responsesInputAsChat('hi').messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('Nous Portal’s Responses path', () => {
  const model = 'deepseek/deepseek-v4-flash-0731';

  it('refuses a DeepSeek V4 tool call replayed without its reasoning item, in Responses terms (OpenMinis#171)', async () => {
    const { status, text, findings } = await post({ model, reasoning: { effort: 'high' }, input: loop(call) });
    expect(status).toBe(400);
    expect(text).toContain('The `reasoning_text` in the thinking mode must be passed back to the API.');
    expect(findings[0]).toMatchObject({ rule: 'must-echo', params: { index: 1, path: 'input.1' } });
  });

  it('lets the same turn through with its reasoning_text, and leaves models without an echo rule alone', async () => {
    for (const body of [
      { model, input: loop(reasoning('Open it.'), call) },
      { model: 'openai/gpt-5', input: loop(call) },
    ]) {
      const { status, findings } = await post(body);
      // Accepted: the mock holds no Responses-shaped answer for a chat gateway and says so (599, no findings).
      expect([status, findings]).toEqual([599, []]);
    }
  });

  it('answers a malformed Responses body with the gateway’s own malformed-body rejection, and keeps the chat path as it was', async () => {
    expect((await post({ model, input: 7 })).findings.map((f) => f.rejection)).toEqual(['invalid-request']);
    const chat = await post(
      {
        model,
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: 'x' },
        ],
      },
      '/v1/chat/completions',
    );
    expect(chat.text).toContain('reasoning_content');
    expect(chat.text).not.toContain('reasoning_text');
  });
});
