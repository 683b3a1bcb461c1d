import { describe, expect, it } from 'vitest';
import { familyFor } from '../families/registry.js';
import { routeForTarget } from '../policy/route-for-target.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { formatSse } from '../../shared/sse/parse-sse.js';
import type { History, Message } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { lastServerCompaction, serverCarriersOf } from './server-carriers.js';

const table = loadRouteTable();
const policyFor = (provider: string, host: string, model: string) => routeForTarget(table, { provider, host, model });
const anthropic = policyFor('anthropic', 'api.anthropic.com', 'claude-opus-5');
const responses = policyFor('openai-responses', 'api.openai.com', 'gpt-5.5');
const xai = policyFor('xai-responses', 'api.x.ai', 'grok-5');

// Shapes from the SDK types (BetaCompactionBlock, compaction_delta) and OpenAI's compaction guide.
const compactionBlock = { type: 'compaction', content: 'Summary: the user asked for X.', encrypted_content: 'ZW5j+/=' };
const claudeAnswer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-5',
  content: [compactionBlock, { type: 'text', text: 'Continuing.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 1, output_tokens: 1 },
};
const compactionItem = { id: 'cmp_1', type: 'compaction', encrypted_content: 'Y21w' };
const responsesAnswer = {
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  model: 'gpt-5.5',
  output: [
    compactionItem,
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Continuing.', annotations: [] }],
    },
  ],
};

const historyWith = (answer: Message): History => ({
  messages: [{ role: 'user', content: 'long task' }, answer, { role: 'user', content: 'next' }],
});
const requestBody = (history: History, policy: RoutePolicy) =>
  JSON.stringify(familyFor(policy.family).toRequest(history, policy).body);

describe('server compaction carriers in the engine', () => {
  it('the route table says which routes read compaction back', () => {
    expect(anthropic.serverCarriers).toEqual(['compaction']);
    expect(responses.serverCarriers).toEqual(['compaction']);
    expect(xai.serverCarriers).toEqual(['compaction']);
    expect(xai.native).not.toBe(responses.native);
    expect(policyFor('vertex', 'us-east5-aiplatform.googleapis.com', 'claude-opus-5').serverCarriers).toBeUndefined();
  });

  it('Anthropic: the compaction block is read into the native record and goes back first, byte for byte', () => {
    const message = familyFor('anthropic-messages').fromResponse(claudeAnswer, anthropic).message;
    expect(serverCarriersOf(message)).toEqual([{ kind: 'compaction', value: compactionBlock }]);
    const body = familyFor('anthropic-messages').toRequest(historyWith(message), anthropic).body as {
      messages: { content: unknown[] }[];
    };
    expect(body.messages[1]!.content[0]).toEqual(compactionBlock);
    expect(JSON.stringify(body.messages[1]!.content[0])).toBe(JSON.stringify(compactionBlock));
  });

  it('Anthropic stream: compaction_delta pieces make the same block', () => {
    const events = [
      { type: 'message_start', message: { ...claudeAnswer, content: [], stop_reason: null } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'compaction', content: null, encrypted_content: null },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'compaction_delta', content: 'Summary: the user ', encrypted_content: 'ZW5j' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'compaction_delta', content: 'asked for X.', encrypted_content: '+/=' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Continuing.' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
      { type: 'message_stop' },
    ];
    const carriers = familyFor('anthropic-messages').streamCarriers!(anthropic);
    carriers.feed(formatSse(events.map((e) => ({ event: e.type, data: JSON.stringify(e) }))));
    const streamed = carriers.end().message;
    expect(streamed).toEqual(familyFor('anthropic-messages').fromResponse(claudeAnswer, anthropic).message);
  });

  it('Anthropic: a route that does not read compaction back is not sent the block', () => {
    const message = familyFor('anthropic-messages').fromResponse(claudeAnswer, anthropic).message;
    const without: RoutePolicy = { ...anthropic };
    delete without.serverCarriers;
    expect(requestBody(historyWith(message), without)).not.toContain('ZW5j');
    expect(requestBody(historyWith(message), anthropic)).toContain('ZW5j+/=');
  });

  it('Responses: the compaction item goes back to its own route only, never to xAI', () => {
    const message = familyFor('openai-responses').fromResponse(responsesAnswer, responses).message;
    expect(serverCarriersOf(message)).toEqual([{ kind: 'compaction', value: compactionItem }]);
    const body = familyFor('openai-responses').toRequest(historyWith(message), responses).body as { input: unknown[] };
    expect(body.input[1]).toEqual(compactionItem);
    expect(requestBody(historyWith(message), xai)).not.toContain('Y21w');
  });

  it('an xAI answer is filed under its own key, and its compaction item never goes to OpenAI', () => {
    const message = familyFor('openai-responses').fromResponse(responsesAnswer, xai).message;
    expect(message.native?.route).toBe('xai-responses');
    expect(requestBody(historyWith(message), xai)).toContain('Y21w');
    expect(requestBody(historyWith(message), responses)).not.toContain('Y21w');
  });

  it('lastServerCompaction names the newest message holding one', () => {
    const message = familyFor('openai-responses').fromResponse(responsesAnswer, responses).message;
    const history = historyWith(message);
    expect(lastServerCompaction(history.messages)).toBe(1);
    expect(lastServerCompaction([...history.messages, message, { role: 'user', content: 'x' }])).toBe(3);
    expect(lastServerCompaction([{ role: 'user', content: 'x' }])).toBe(-1);
  });
});
