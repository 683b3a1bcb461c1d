import { describe, expect, it } from 'vitest';
import type { ProviderSpec, Upstream } from '../../shared/provider-specs/provider-spec.js';
import { registerProviderSpecs } from '../../shared/provider-specs/spec-registry.js';
import type { Finding } from '../../shared/findings/finding.js';
import { judgeGatewayResponses, responsesInputAsChat } from './gateway-upstream-responses.js';

/**
 * A gateway's Responses path driven with a hand-made gateway and upstream (ids no bundled spec
 * uses): how Responses input items become the upstream's chat messages, and what the judge answers.
 * Written for the survivors of a Stryker run (decision 0029).
 */
const SRC = 'https://upstream.test/docs';
const rule = {
  field: 'reasoning_content',
  turns: 'tool-call-turns',
  level: 'required',
  rejection: 'echo-missing',
  source: SRC,
};
registerProviderSpecs([
  {
    id: 'h5-r-echo',
    label: 'Echo',
    family: 'openai-chat',
    endpoint: { baseUrl: 'https://echo.test/v1', path: '/chat/completions' },
    target: { provider: 'h5-r-echo', model: 'm' },
    request: { schema: { type: 'object' } },
    echo: [rule, { ...rule, rejection: 'echo-disputed', contested: { notes: 'n', sources: ['https://other.test'] } }],
    rejections: {
      'echo-missing': { status: 400, body: {}, sources: [SRC] },
      'echo-disputed': { status: 400, body: {}, sources: [SRC] },
    },
    response: { carriers: [] },
    sources: [SRC],
    models: {
      variants: [{ match: '^relaxed', label: 'no echo', without: ['echo-missing', 'echo-disputed'], sources: [SRC] }],
    },
  } as unknown as ProviderSpec,
]);
const up = (checks: Upstream['checks'], extra: Partial<Upstream> = {}): Upstream => ({
  models: '^h5-r-echo/',
  provider: 'h5-r-echo',
  providerName: 'Echo Inc',
  checks,
  sources: [SRC],
  ...extra,
});
const gateway = (upstreams: Upstream[], invalid?: string): ProviderSpec =>
  ({
    id: 'h5-r-gateway',
    label: 'Gateway',
    family: 'openai-chat',
    endpoint: { baseUrl: 'https://gw.test/v1', path: '/chat/completions' },
    target: { provider: 'gw', model: 'h5-r-echo/m' },
    request: { schema: { type: 'object' }, ...(invalid ? { invalidRejection: invalid } : {}) },
    echo: [],
    rejections: {},
    response: { carriers: [] },
    sources: ['https://gw.test'],
    upstreams,
  }) as unknown as ProviderSpec;

const call = { type: 'function_call', call_id: 'c1', name: 'look', arguments: '{}' };
const output = { type: 'function_call_output', call_id: 'c1', output: 'r' };

describe('responsesInputAsChat', () => {
  it('reads a string input as one user message', () => {
    expect(responsesInputAsChat('hi')).toEqual({ messages: [{ role: 'user', content: 'hi' }], inputIndex: [0] });
    expect(responsesInputAsChat(42)).toEqual({ messages: [], inputIndex: [] });
  });

  it('joins consecutive assistant-side items into one assistant message, reasoning_text parts as reasoning_content', () => {
    const input = [
      { role: 'user', content: [{ type: 'input_text', text: 'q' }, 'junk'] },
      'junk',
      {
        type: 'reasoning',
        content: [
          { type: 'reasoning_text', text: 'one ' },
          { type: 'summary_text', text: 'no' },
          { type: 'reasoning_text', text: 3 },
          'junk',
        ],
      },
      { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'two' }] },
      { type: 'reasoning', summary: [] },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
      call,
      output,
      { type: 'message', role: 'assistant', content: 'Done.' },
      { type: 'item_reference', id: 'x' },
    ];
    expect(responsesInputAsChat(input)).toEqual({
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'Looking.',
          reasoning_content: 'one two',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
        { role: 'assistant', content: 'Done.' },
      ],
      inputIndex: [0, 2, 7, 8],
    });
  });

  it('keeps a reasoning item without reasoning_text from adding reasoning_content, and a user item from joining an assistant turn', () => {
    const { messages } = responsesInputAsChat([
      { type: 'reasoning', content: [{ type: 'summary_text', text: 's' }] },
      call,
      { type: 'message', role: 'user', content: 'more' },
      call,
    ]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }],
      },
      { role: 'user', content: 'more' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }],
      },
    ]);
  });
});

describe('judgeGatewayResponses', () => {
  const loop = [{ role: 'user', content: 'q' }, call, output];

  it('answers a malformed body with the gateway’s invalid-request rejection, naming the path, or not at all without one', () => {
    const strict = gateway([up(['must-echo'])], 'bad');
    const malformed = (path: string) => [
      {
        rule: 'provider-accepts',
        rejection: 'bad',
        params: { path, field: path },
        detail: `the Responses body fails at '${path}'`,
      },
    ];
    expect(judgeGatewayResponses(strict, 'x')).toEqual(malformed(''));
    expect(judgeGatewayResponses(strict, { input: 'q' })).toEqual(malformed('model'));
    expect(judgeGatewayResponses(strict, { model: 'h5-r-echo/m', input: 5 })).toEqual(malformed('input'));
    expect(judgeGatewayResponses(gateway([up(['must-echo'])]), { input: 'q' })).toEqual([]);
    expect(judgeGatewayResponses(strict, { model: 'h5-r-echo/m', input: 'q' })).toEqual([]);
  });

  it('applies the upstream’s echo rules for the model without the gateway prefix, only when the upstream lists must-echo', () => {
    expect(
      judgeGatewayResponses(gateway([up(['must-echo'])]), { model: 'h5-r-echo/m', input: loop }).map(
        (f) => f.rejection,
      ),
    ).toEqual(['echo-missing', 'echo-disputed']);
    expect(judgeGatewayResponses(gateway([up(['must-echo'])]), { model: 'h5-r-echo/relaxed', input: loop })).toEqual(
      [],
    );
    expect(judgeGatewayResponses(gateway([up(['claude-signatures'])]), { model: 'h5-r-echo/m', input: loop })).toEqual(
      [],
    );
    expect(
      judgeGatewayResponses(gateway([{ ...up(['must-echo']), provider: 'nobody' }]), {
        model: 'h5-r-echo/m',
        input: loop,
      }),
    ).toEqual([]);
    expect(judgeGatewayResponses(gateway([up(['must-echo'])]), { model: 'other/m', input: loop })).toEqual([]);
    const reasoned = [
      { role: 'user', content: 'q' },
      { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'r' }] },
      call,
      output,
    ];
    expect(judgeGatewayResponses(gateway([up(['must-echo'])]), { model: 'h5-r-echo/m', input: reasoned })).toEqual([]);
  });

  it('names the Responses input item, prefers the gateway’s Responses wording, and puts contested findings last', () => {
    const both = up(['must-echo'], {
      responsesRejections: { 'echo-missing': 'gw-responses' },
      ownRejections: { 'echo-missing': 'gw-chat', 'echo-disputed': 'gw-chat-2' },
    });
    const [first, second] = judgeGatewayResponses(gateway([both]), {
      model: 'h5-r-echo/m',
      input: [{ role: 'user', content: 'q' }, { type: 'reasoning', content: [] }, call, output],
    });
    expect(first).toMatchObject({
      rejection: 'echo-missing',
      params: { index: 1, path: 'input.1', provider_name: 'Echo Inc' },
      via: { provider: 'h5-r-echo', providerName: 'Echo Inc', gatewayRejection: 'gw-responses' },
    });
    expect(first!.detail).toMatch(/ \(Responses input item 1\)$/);
    expect(first!.contested).toBeUndefined();
    expect(second).toMatchObject({
      rejection: 'echo-disputed',
      contested: true,
      via: { gatewayRejection: 'gw-chat-2' },
    });
    const plain = judgeGatewayResponses(gateway([up(['must-echo'])]), { model: 'h5-r-echo/m', input: loop })[0]!;
    expect((plain as Finding & { via?: unknown }).via).toEqual({ provider: 'h5-r-echo', providerName: 'Echo Inc' });
  });
});

describe('responsesInputAsChat: edges a second Stryker run left', () => {
  it('joins a reasoning item’s reasoning_text parts as they stand, reads only text parts of content, and lets no skipped entry split a turn', () => {
    const { messages } = responsesInputAsChat([
      { role: 'user', content: [{ text: 'a' }, 'junk', { text: 5 }, { text: 'b' }] },
      {
        type: 'reasoning',
        content: [
          { type: 'reasoning_text', text: 'one' },
          { type: 'reasoning_text', text: 'two' },
        ],
      },
      'junk',
      call,
      { type: 'item_reference', role: 'assistant', id: 'x' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'ab' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'onetwo',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }],
      },
      { role: 'assistant', content: '' },
    ]);
  });
});
