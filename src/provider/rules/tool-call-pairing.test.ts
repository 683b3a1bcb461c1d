import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { pairingFindings } from './tool-call-pairing.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
/** The provider's first answer to a body: status and the text of its filled body. */
const answer = (id: string, body: Record<string, unknown>, model = String(body.model)) => {
  const spec = specForModel(specs.get(id)!, model);
  const [first] = judgeRequest(spec, body);
  return (
    first && {
      rejection: first.rejection,
      status: spec.rejections[first.rejection]!.status,
      text: JSON.stringify(fillRejection(spec.rejections[first.rejection]!, first.params).body),
    }
  );
};

const chatCalls = { roles: ['assistant'], path: 'tool_calls.*', id: 'id' };
const chatResults = { roles: ['tool'], id: 'tool_call_id' };
const rule = (refuse: 'unanswered-calls' | 'orphan-results' | 'excess-results', within: 'adjacent' | 'before') =>
  ({ rejection: 'r', pairs: { calls: chatCalls, results: chatResults, refuse, within } }) as MessageRule;
const judge = (r: MessageRule, messages: unknown[]) => pairingFindings(r.pairs!, r, messages, 'messages');

const call = (id: string) => ({ id, type: 'function', function: { name: 'get_time', arguments: '{}' } });
const turn = (...ids: string[]) => ({ role: 'assistant', content: null, tool_calls: ids.map(call) });
const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: '09:00' });
const user = (content = 'go on') => ({ role: 'user', content });

/** A history of tool rounds, each round's calls answered right after it, in any order. */
const pairedHistory = fc
  .array(
    fc
      .uniqueArray(fc.stringMatching(/^[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 4 })
      .chain((ids) =>
        fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length }).map((order) => ({ ids, order })),
      ),
    { minLength: 1, maxLength: 5 },
  )
  .map((rounds) =>
    rounds.flatMap(({ ids, order }, r) => [
      user(`round ${r}`),
      turn(...ids.map((id) => `${r}_${id}`)),
      ...order.map((id) => result(`${r}_${id}`)),
    ]),
  );

describe('tool calls and their results, paired by id', () => {
  it('accepts every well-paired history, in every mode', () => {
    fc.assert(
      fc.property(pairedHistory, (messages) => {
        for (const refuse of ['unanswered-calls', 'orphan-results', 'excess-results'] as const)
          for (const within of ['adjacent', 'before'] as const)
            expect(judge(rule(refuse, within), messages)).toEqual([]);
      }),
    );
  });

  it('refuses the history once one result is removed, naming the call turn and the unanswered id', () => {
    fc.assert(
      fc.property(pairedHistory, fc.nat(), (messages, pick) => {
        const results = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
        const cut = results[pick % results.length]!;
        const id = (messages[cut] as unknown as { tool_call_id: string }).tool_call_id;
        const without = [...messages.slice(0, cut), ...messages.slice(cut + 1), user('next')];
        const found = judge(rule('unanswered-calls', 'adjacent'), without);
        expect(found).toHaveLength(1);
        expect(found[0]!.params.id).toBe(id);
        expect((without[found[0]!.params.index as number] as { role: string }).role).toBe('assistant');
      }),
    );
  });

  it('refuses a result whose id no call carries, once its id is changed', () => {
    fc.assert(
      fc.property(pairedHistory, fc.nat(), (messages, pick) => {
        const results = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
        const at = results[pick % results.length]!;
        const changed = messages.map((m, i) => (i === at ? result('stranger') : m));
        for (const within of ['adjacent', 'before'] as const)
          expect(judge(rule('orphan-results', within), changed)).toMatchObject([
            { params: { index: at, id: 'stranger', count: 1 } },
          ]);
      }),
    );
  });

  it('with match count, lets results with other ids through when they are as many as the calls (scripted ids)', () => {
    const counted = (refuse: 'unanswered-calls' | 'orphan-results', within: 'adjacent' | 'before') =>
      ({ ...rule(refuse, within), pairs: { ...rule(refuse, within).pairs!, match: 'count' } }) as MessageRule;
    const scripted = [user(), turn('call_0'), result('call_weather_1'), user()];
    expect(judge(rule('unanswered-calls', 'adjacent'), scripted)).toHaveLength(1);
    expect(judge(counted('unanswered-calls', 'adjacent'), scripted)).toEqual([]);
    expect(judge(counted('orphan-results', 'adjacent'), scripted)).toEqual([]);
    expect(judge(counted('orphan-results', 'before'), scripted)).toEqual([]);
    // Fewer results than calls, or results after no call at all: refused, naming the ids that do not pair.
    expect(judge(counted('unanswered-calls', 'adjacent'), [user(), turn('a', 'b'), result('x'), user()])).toMatchObject(
      [{ params: { id: 'a, b' } }],
    );
    const noCall = [user(), { role: 'assistant', content: 'ok' }, result('x')];
    expect(judge(counted('orphan-results', 'adjacent'), noCall)).toMatchObject([{ params: { id: 'x' } }]);
    expect(judge(counted('orphan-results', 'before'), noCall)).toMatchObject([{ params: { id: 'x' } }]);
  });

  it('does not judge a call turn that ends the history (a turn in progress, or a prefill)', () => {
    expect(judge(rule('unanswered-calls', 'adjacent'), [user(), turn('a')])).toEqual([]);
  });

  it('lists every unanswered id of one turn, and finds a result in the wrong round only in adjacent mode', () => {
    expect(
      judge(rule('unanswered-calls', 'adjacent'), [user(), turn('a', 'b', 'c'), result('b'), user()]),
    ).toMatchObject([{ params: { index: 1, id: 'a, c', count: 2 } }]);
    const late = [user(), turn('a'), result('a'), user(), turn('b'), result('b'), result('a')];
    expect(judge(rule('orphan-results', 'adjacent'), late)).toMatchObject([{ params: { index: 6, id: 'a' } }]);
    expect(judge(rule('orphan-results', 'before'), late)).toEqual([]);
  });

  it('counts the results one item holds against the calls of the item it answers (excess), not their ids', () => {
    const blocks: MessageRule = {
      rejection: 'r',
      pairs: {
        calls: { roles: ['assistant'], path: 'content.*.toolUse', id: 'toolUseId' },
        results: { roles: ['user'], path: 'content.*.toolResult', id: 'toolUseId' },
        refuse: 'excess-results',
        within: 'adjacent',
      },
    };
    const use = (id: string) => ({ toolUse: { toolUseId: id, name: 'f', input: {} } });
    const res = (id: string) => ({ toolResult: { toolUseId: id, content: [] } });
    const judgeBlocks = (messages: unknown[]) => pairingFindings(blocks.pairs!, blocks, messages, 'messages');
    const history = (...results: string[]) => [
      user(),
      { role: 'assistant', content: [use('a'), use('b')] },
      { role: 'user', content: results.map(res) },
    ];
    expect(judgeBlocks(history('a', 'b'))).toEqual([]);
    // Ids are not compared: a stranger within the count passes, one result too many does not.
    expect(judgeBlocks(history('a', 'z'))).toEqual([]);
    expect(judgeBlocks(history('a', 'b', 'z'))).toMatchObject([{ params: { index: 2, count: 3 } }]);
  });

  it('reads calls and results inside content blocks by kind (Anthropic), leaving server tools alone', () => {
    const claude: MessageRule = {
      rejection: 'r',
      pairs: {
        calls: { roles: ['assistant'], path: 'content.*', kind: 'tool_use', id: 'id' },
        results: { roles: ['user'], path: 'content.*', kind: 'tool_result', id: 'tool_use_id' },
        refuse: 'unanswered-calls',
        within: 'adjacent',
      },
    };
    const messages = [
      user(),
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
          { type: 'tool_use', id: 'toolu_1', name: 'get_time', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '09:00' }] },
    ];
    expect(pairingFindings(claude.pairs!, claude, messages, 'messages')).toEqual([]);
    const lost = [...messages.slice(0, 2), user('status?')];
    expect(pairingFindings(claude.pairs!, claude, lost, 'messages')).toMatchObject([{ params: { id: 'toolu_1' } }]);
  });
});

describe('the providers that pair tool calls, with their own words', () => {
  const tools = [{ type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } }];

  it('OpenAI, DeepSeek and DashScope refuse tool calls followed by a user message; MiniMax a result of no call', () => {
    const messages = [user('time?'), turn('call_1'), user('and tomorrow?')];
    expect(answer('openai', { model: 'gpt-4o', messages, tools })).toMatchObject({
      status: 400,
      text: expect.stringContaining('The following tool_call_ids did not have response messages: call_1'),
    });
    expect(answer('deepseek', { model: 'deepseek-chat', messages, tools })?.text).toContain(
      '(insufficient tool messages following tool_calls message)',
    );
    expect(answer('dashscope', { model: 'qwen-plus', messages, tools })?.rejection).toBe(
      'tool-calls-without-responses',
    );
    expect(
      answer('minimax', {
        model: 'MiniMax-M2.1',
        messages: [user(), { role: 'assistant', content: 'ok' }, result('x1')],
      })?.text,
    ).toContain("tool result's tool id(x1) not found (2013)");
  });

  it('Anthropic refuses a tool_result of no tool_use, and a tool_use answered by plain text', () => {
    const useTurn = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'get_time', input: {} }] };
    const base = { model: 'claude-sonnet-4-5', max_tokens: 1024 };
    expect(answer('anthropic', { ...base, messages: [user(), useTurn, user('status?')] })?.text).toContain(
      '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_9.',
    );
    const orphan = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_8', content: 'x' }] };
    expect(
      answer('anthropic', { ...base, messages: [user(), { role: 'assistant', content: 'ok' }, orphan] })?.text,
    ).toContain('unexpected `tool_use_id` found in `tool_result` blocks: toolu_8.');
  });

  it('Responses refuses an output of no call, unless previous_response_id holds the call', () => {
    const input = [user('fix it'), { type: 'function_call_output', call_id: 'call_7', output: 'ok' }];
    expect(answer('openai-responses', { model: 'gpt-5', input })?.text).toContain(
      'No tool call found for function call output with call_id call_7.',
    );
    expect(answer('openai-responses', { model: 'gpt-5', input, previous_response_id: 'resp_1' })).toBeUndefined();
    // A client that stores responses refers to the call by item_reference (the AI SDK's default): not judged.
    const referenced = [input[0], { type: 'item_reference', id: 'fc_1' }, input[1]];
    expect(answer('openai-responses', { model: 'gpt-5', input: referenced })).toBeUndefined();
    const paired = [{ type: 'function_call', call_id: 'call_7', name: 'f', arguments: '{}' }, ...input.slice(1)];
    expect(answer('openai-responses', { model: 'gpt-5', input: [user('fix it'), ...paired] })).toBeUndefined();
  });

  it('Bedrock refuses more toolResult blocks than the toolUse blocks before them', () => {
    const body = {
      messages: [
        { role: 'user', content: [{ text: 'run' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 't1', content: [{ text: 'a' }] } },
            { toolResult: { toolUseId: 't0', content: [{ text: 'b' }] } },
          ],
        },
      ],
    };
    expect(answer('bedrock-claude', body, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0')?.text).toContain(
      'The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.',
    );
  });
});
