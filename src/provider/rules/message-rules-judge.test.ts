import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import type { Finding } from '../../shared/findings/finding.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { judgeMessageRules } from './message-rules-judge.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const judge = (id: string, body: Record<string, unknown>): Finding[] =>
  judgeRequest(specForModel(specs.get(id)!, String(body.model)), body);
/** The text of the answer the mock gives for a provider's first finding. */
const answer = (id: string, body: Record<string, unknown>) => {
  const spec = specForModel(specs.get(id)!, String(body.model));
  const [first] = judgeRequest(spec, body);
  return (
    first && {
      status: spec.rejections[first.rejection]!.status,
      text: JSON.stringify(fillRejection(spec.rejections[first.rejection]!, first.params).body),
    }
  );
};

const bare = (rules: MessageRule[]): ProviderSpec => ({
  ...specs.get('hunyuan')!,
  messageRules: rules,
  rejections: { no: { status: 400, body: {}, wording: 'unknown', sources: ['https://example.com/own'] } },
});
const call = (args: string) => ({ id: 'c1', type: 'function', function: { name: 'get_time', arguments: args } });

describe('fields that may not all be empty (Zhipu)', () => {
  const metagpt = ['system', 'user', 'assistant', 'user'].map((role) => ({ role, content: 'x' }));

  it('refuses an assistant message with neither content nor tool_calls, numbered as Zhipu numbers it (system counted)', () => {
    const body = {
      model: 'glm-4',
      messages: [...metagpt, { role: 'assistant', content: '' }, { role: 'user', content: 'Continue.' }],
    };
    expect(judge('zhipu-glm', body)).toMatchObject([
      { rejection: 'content-and-tool-calls-empty', params: { index: 4, role: 'assistant' } },
    ]);
    expect(answer('zhipu-glm', body)).toEqual({
      status: 400,
      text: expect.stringContaining('messages[4]:content和tool_calls 字段不能同时为空'),
    });
  });

  it('takes null and an absent content as empty too, and lets a tool-call turn with content "" through', () => {
    for (const empty of [{ content: null }, {}, { content: '', tool_calls: [] }]) {
      expect(
        judge('zhipu-glm', {
          model: 'glm-5.1',
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', ...empty },
            { role: 'user', content: 'go on' },
          ],
        })[0]?.params.index,
      ).toBe(1);
    }
    const toolTurn = {
      model: 'glm-5.1',
      messages: [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: '', tool_calls: [call('{}')] },
        { role: 'tool', tool_call_id: 'c1', content: '09:00' },
      ],
    };
    expect(judge('zhipu-glm', toolTurn)).toEqual([]);
  });

  it('walks another top-level list when the rule names one: a tool definition without its type', () => {
    const body = {
      model: 'glm-4.6',
      messages: [{ role: 'user', content: 'ls' }],
      tools: [{ type: 'function', function: { name: 'a' } }, { function: { name: 'Bash' } }],
    };
    expect(judge('zhipu-glm', body)).toMatchObject([
      { rejection: 'tool-type-empty', params: { index: 1, path: 'tools.1' } },
    ]);
    expect(answer('zhipu-glm', body)?.text).toContain('tools[1].type:type cannot be empty.');
  });

  it('holds only for the roles it names', () => {
    const rules: MessageRule[] = [
      { rejection: 'no', fields: { roles: ['assistant'], empty: ['content', 'tool_calls'] } },
    ];
    expect(judgeMessageRules(bare(rules), { messages: [{ role: 'user', content: '' }] })).toEqual([]);
  });
});

describe('fields that may not all be present (llama.cpp, gpt-oss template)', () => {
  const body = (model: string, reasoning: string) => ({
    model,
    messages: [
      { role: 'user', content: 'What time is it in Tokyo?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        reasoning_content: reasoning,
        tool_calls: [call('{"tz":"Asia/Tokyo"}')],
      },
      { role: 'tool', tool_call_id: 'c1', content: '09:00' },
    ],
  });

  it('refuses content, reasoning and tool calls together on gpt-oss only, as a contested 500 citing the fix', () => {
    const [found] = judge('llama-cpp-local', body('gpt-oss-20b', 'Call the time tool.'));
    expect(found).toMatchObject({ rejection: 'gpt-oss-content-and-thinking', params: { index: 1 }, contested: true });
    expect(found?.sources).toContain('https://github.com/ggml-org/llama.cpp/pull/19704');
    expect(answer('llama-cpp-local', body('gpt-oss-20b', 'Call the time tool.'))).toEqual({
      status: 500,
      text: expect.stringContaining('Cannot pass both content and thinking'),
    });
    expect(judge('llama-cpp-local', body('qwen3-8b', 'Call the time tool.'))).toEqual([]);
  });

  it('lets an empty reasoning through: the template tests each for truth', () => {
    expect(judge('llama-cpp-local', body('gpt-oss-120b', ''))).toEqual([]);
  });
});

describe('strings that must be JSON (DashScope)', () => {
  const body = (args: string) => ({
    model: 'qwen3.5-plus',
    messages: [
      { role: 'user', content: 'Check the weather in Hangzhou.' },
      { role: 'assistant', content: '', tool_calls: [call('{"city":"Hangzhou"}'), { ...call(args), id: 'c2' }] },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: 'sunny' },
    ],
  });

  it('refuses replayed arguments that do not parse, naming the call', () => {
    expect(judge('dashscope', body('city=Hangzhou'))).toMatchObject([
      {
        rejection: 'arguments-not-json',
        params: { index: 1, path: 'messages.1.tool_calls.1.function.arguments', field: 'arguments' },
      },
    ]);
    expect(answer('dashscope', body('city=Hangzhou'))?.text).toContain(
      'The \\"function.arguments\\" parameter of the code model must be in JSON format.',
    );
  });

  it('accepts JSON arguments, an object or not (a non-object is not shown refused)', () => {
    expect(judge('dashscope', body('{}'))).toEqual([]);
    expect(judge('dashscope', body('"Hangzhou"'))).toEqual([]);
  });
});

describe('what a message must follow, and a role the conversation must hold (DashScope)', () => {
  const toolCall = { role: 'assistant', content: '', tool_calls: [call('{}'), { ...call('{}'), id: 'c2' }] };
  const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: '09:00' });

  it('refuses a tool result with no tool-call turn before it, and lets parallel results follow one another', () => {
    const orphan = { model: 'qwen-plus', messages: [{ role: 'user', content: 'time?' }, result('c1')] };
    expect(judge('dashscope', orphan)).toMatchObject([
      { rejection: 'tool-without-tool-calls', params: { index: 1, role: 'tool' } },
    ]);
    expect(answer('dashscope', orphan)?.text).toContain(
      'messages with role \\"tool\\" must be a response to a preceeding message with \\"tool_calls\\".',
    );
    expect(
      judge('dashscope', {
        model: 'qwen-plus',
        messages: [{ role: 'user', content: 'time?' }, toolCall, result('c1'), result('c2')],
      }),
    ).toEqual([]);
    // A compaction that kept the results but cut the call turn: a plain answer is no tool-call turn.
    const cut = {
      model: 'qwen-plus',
      messages: [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: 'Checking.' },
        result('c1'),
        result('c2'),
      ],
    };
    expect(judge('dashscope', cut).map((f) => f.params.index)).toEqual([2, 3]);
  });

  it('refuses a conversation without a user message, naming no index', () => {
    const body = {
      model: 'qwen3-vl-plus',
      messages: [
        { role: 'system', content: 'compare' },
        { role: 'assistant', content: 'three rows' },
      ],
    };
    expect(judge('dashscope', body)).toMatchObject([{ rejection: 'no-user-message', params: { path: 'messages' } }]);
    expect(judge('dashscope', body)[0]?.params.index).toBeUndefined();
    expect(answer('dashscope', body)?.text).toContain(
      'The input messages do not contain elements with the role of user',
    );
  });
});

describe('role alternation (Hunyuan)', () => {
  const turns = (...roles: string[]) => ({
    model: 'hunyuan-t1-latest',
    messages: roles.map((role) => ({ role, content: role })),
  });

  it('refuses two user messages in a row at the second, in Hunyuan’s words', () => {
    expect(judge('hunyuan', turns('system', 'user', 'user'))).toMatchObject([
      { rejection: 'roles-must-alternate', params: { index: 2, role: 'user' } },
    ]);
    expect(answer('hunyuan', turns('system', 'user', 'user'))).toEqual({
      status: 400,
      text: expect.stringContaining('messages 中 user（tool） 和 assistant 角色需交替出现'),
    });
  });

  it('takes consecutive tool results as one question, and wants the conversation to start and end with one', () => {
    expect(judge('hunyuan', turns('system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user'))).toEqual([]);
    expect(judge('hunyuan', turns('assistant', 'user'))[0]?.params.index).toBe(0);
    expect(judge('hunyuan', turns('user', 'assistant'))[0]?.params.index).toBe(1);
    expect(judge('hunyuan', turns('user', 'assistant', 'assistant', 'user'))[0]?.params.index).toBe(2);
  });

  it('never refuses a conversation that alternates, and names the first message out of turn in one that does not', () => {
    const rules: MessageRule[] = [
      {
        rejection: 'no',
        alternation: {
          skip: ['system'],
          ask: ['user', 'tool'],
          answer: ['assistant'],
          repeatable: ['tool'],
          first: 'ask',
          last: 'ask',
        },
      },
    ];
    const aQuestion = fc.constantFrom<string[]>(['user'], ['tool'], ['tool', 'tool']);
    const anAlternatingConversation = fc
      .array(aQuestion, { minLength: 1, maxLength: 6 })
      .map((questions) => questions.flatMap((q, i) => [...(i > 0 ? ['assistant'] : []), ...q]));
    fc.assert(
      fc.property(anAlternatingConversation, fc.nat(), (roles, at) => {
        const messages = ['system', ...roles].map((role) => ({ role }));
        expect(judgeMessageRules(bare(rules), { messages })).toEqual([]);
        // Doubling an assistant message puts the copy out of turn, and nothing before it.
        const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
        if (assistants.length === 0) return;
        const index = assistants[at % assistants.length]!;
        const doubled = [...messages.slice(0, index + 1), { role: 'assistant' }, ...messages.slice(index + 1)];
        expect(judgeMessageRules(bare(rules), { messages: doubled })).toMatchObject([{ params: { index: index + 1 } }]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('contested message rules', () => {
  it('mark their findings contested and cite both sides', () => {
    const rules: MessageRule[] = [
      {
        rejection: 'no',
        fields: { empty: ['content'] },
        contested: { notes: 'other side', sources: ['https://example.com/other'] },
      },
    ];
    expect(judgeMessageRules(bare(rules), { messages: [{ role: 'user' }] })).toMatchObject([
      { contested: true, sources: ['https://example.com/own', 'https://example.com/other'] },
    ]);
  });
});

describe('history rules added for issue 23, read from the specs', () => {
  const user = (content = 'go on') => ({ role: 'user', content });

  it('fields.null: OpenAI refuses content null without tool calls, and takes it beside them', () => {
    const cancelled = { model: 'gpt-4o', messages: [user('q'), { role: 'assistant', content: null }, user('again')] };
    expect(answer('openai', cancelled)).toEqual({
      status: 400,
      text: expect.stringContaining("Invalid value for 'content': expected a string, got null."),
    });
    const toolTurn = {
      model: 'gpt-4o',
      messages: [
        user('q'),
        { role: 'assistant', content: null, tool_calls: [call('{}')] },
        { role: 'tool', tool_call_id: 'c1', content: 'x' },
      ],
    };
    expect(judge('openai', toolTurn)).toEqual([]);
    // An absent content is not null.
    expect(judge('openai', { model: 'gpt-4o', messages: [user('q'), { role: 'assistant' }, user()] })).toEqual([]);
  });

  it('fields.exceptLast: Anthropic refuses empty content anywhere but a final assistant message', () => {
    const base = { model: 'claude-sonnet-4-5', max_tokens: 1024 };
    expect(
      answer('anthropic', {
        ...base,
        messages: [{ role: 'user', content: [] }, { role: 'assistant', content: 'ok' }, user()],
      })?.text,
    ).toContain('messages.0: all messages must have non-empty content except for the optional final assistant message');
    expect(judge('anthropic', { ...base, messages: [user('hi'), { role: 'assistant', content: [] }] })).toEqual([]);
    expect(
      judge('anthropic', { ...base, messages: [user('hi'), { role: 'assistant', content: [] }, user('there?')] }),
    ).toMatchObject([{ rejection: 'empty-content', params: { index: 1 } }]);
  });

  it('follows.having: Gemini refuses a function call turn first or after model text, not after a user turn', () => {
    const fc = {
      role: 'model',
      parts: [{ functionCall: { name: 'get_time', args: {} }, thoughtSignature: 'skip_thought_signature_validator' }],
    };
    const text = (role: string) => ({ role, parts: [{ text: 'x' }] });
    // The call answered, so that only the turn order is judged (a user text after a call is refused by count).
    const response = { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { t: 1 } } }] };
    const body = (contents: unknown[]) => ({ model: 'gemini-2.5-flash', contents });
    expect(answer('gemini', body([fc, response]))?.text).toContain(
      'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
    );
    expect(judge('gemini', body([text('user'), text('model'), fc, response]))).toMatchObject([
      { rejection: 'function-call-turn-out-of-order', params: { index: 2 } },
    ]);
    expect(judge('gemini', body([text('user'), fc, response]))).toEqual([]);
  });

  it('follows.id: OpenRouter names the orphan tool result of a Claude model as Anthropic does', () => {
    const body = (model: string) => ({
      model,
      messages: [
        user('start'),
        { role: 'assistant', content: 'ok' },
        { role: 'tool', tool_call_id: 'toolu_01X', content: 'x' },
      ],
    });
    expect(answer('openrouter', body('anthropic/claude-opus-4.5'))?.text).toContain(
      'unexpected `tool_use_id` found in `tool_result` blocks: toolu_01X.',
    );
    expect(judge('openrouter', body('openai/gpt-5')).map((f) => f.rejection)).not.toContain(
      'claude-tool-result-without-tool-use',
    );
  });

  it('alternation.skipNonEmpty: the Mistral v0.3 template leaves tool-call turns and results out', () => {
    const model = 'mistralai/Mistral-7B-Instruct-v0.3';
    const toolRound = [
      user('q'),
      { role: 'assistant', content: '', tool_calls: [call('{}')] },
      { role: 'tool', tool_call_id: 'c1', content: 'x' },
      { role: 'assistant', content: 'a' },
    ];
    expect(judge('vllm-local', { model, messages: [{ role: 'system', content: 's' }, ...toolRound, user()] })).toEqual(
      [],
    );
    expect(
      answer('vllm-local', { model, messages: [{ role: 'system', content: 's' }, user('a'), user('b')] })?.text,
    ).toContain(
      'After the optional system message, conversation roles must alternate user/assistant/user/assistant/...',
    );
    expect(
      answer('vllm-local', {
        model: 'TheBloke/Mistral-7B-Instruct-v0.2-AWQ',
        messages: [{ role: 'system', content: 's' }, user()],
      })?.text,
    ).toContain('Conversation roles must alternate user/assistant/user/assistant/...');
    expect(judge('vllm-local', { model: 'Qwen/Qwen3-8B', messages: [user('a'), user('b')] })).toEqual([]);
  });

  it('jsonString names the call: MiniMax quotes the tool_call_id of arguments that do not parse', () => {
    const body = {
      model: 'MiniMax-M2.7',
      messages: [
        user('run'),
        { role: 'assistant', content: '', tool_calls: [{ ...call('{"cmd": "ls"'), id: 'call_function_x_1' }] },
        { role: 'tool', tool_call_id: 'call_function_x_1', content: 'a' },
      ],
    };
    expect(answer('minimax', body)?.text).toContain(
      'invalid function arguments json string, tool_call_id: call_function_x_1 (2013)',
    );
  });

  it('whenBody and unlessBody limit a rule to some bodies', () => {
    const rules: MessageRule[] = [
      { rejection: 'no', contains: { roles: ['user'] }, whenBody: [{ pointer: '/stream', equals: true }] },
      { rejection: 'no', contains: { roles: ['user'] }, unlessBody: [{ pointer: '/n', exists: true }] },
    ];
    const messages = [{ role: 'system', content: 'x' }];
    expect(judgeMessageRules(bare(rules), { messages, stream: true })).toHaveLength(2);
    expect(judgeMessageRules(bare(rules), { messages, stream: false })).toHaveLength(1);
    expect(judgeMessageRules(bare(rules), { messages, n: 1 })).toHaveLength(0);
  });

  it('Zhipu (api.z.ai) refuses a conversation with no user message, in English', () => {
    expect(
      answer('zhipu-glm', {
        model: 'glm-4.5',
        messages: [
          { role: 'system', content: 's' },
          { role: 'assistant', content: 'a' },
        ],
      })?.text,
    ).toContain('The messages parameter is illegal. Please check the documentation.');
  });
});
