import { describe, expect, it } from 'vitest';
import type { ProviderSpec, Upstream } from '../../shared/provider-specs/provider-spec.js';
import { registerProviderSpecs } from '../../shared/provider-specs/spec-registry.js';
import type { Finding } from '../../shared/findings/finding.js';
import { mockRedactedData, mockSignThinking } from '../signing/mock-signature.js';
import { judgeGatewayUpstream, rejectionSpec, upstreamFor } from './gateway-upstream.js';

/**
 * The gateway judge driven with hand-made gateway and upstream specs (ids no bundled spec uses),
 * so every rule is seen through its own data: which rejections the upstream defines, which checks
 * the gateway runs, which are contested. Written for the survivors of a Stryker run (decision 0029).
 */
const SRC = 'https://upstream.test/docs';
const rejection = { status: 400, body: { error: { message: 'm' } }, sources: [SRC] };
function upstreamSpec(id: string, rejections: string[], extra: Record<string, unknown> = {}): ProviderSpec {
  return {
    id,
    label: id,
    family: 'anthropic-messages',
    endpoint: { baseUrl: `https://${id}.test/v1`, path: '/messages' },
    target: { provider: id, model: 'm' },
    request: { schema: { type: 'object' } },
    echo: [],
    rejections: Object.fromEntries(rejections.map((r) => [r, rejection])),
    response: { carriers: [] },
    sources: [SRC],
    ...extra,
  } as unknown as ProviderSpec;
}
const CLAUDE = [
  'blocks-modified',
  'invalid-signature',
  'invalid-redacted',
  'missing-signature',
  'thinking-field-required',
  'thinking-expected',
];
registerProviderSpecs([
  upstreamSpec('h5-claude', CLAUDE, {
    models: {
      variants: [
        {
          match: '^lenient',
          label: 'no signature checks',
          without: ['invalid-signature', 'blocks-modified'],
          sources: [SRC],
        },
      ],
    },
  }),
  upstreamSpec('h5-claude-bare', []),
  upstreamSpec('h5-gemini', ['missing-thought-signature']),
  upstreamSpec('h5-openai', ['encrypted-content-not-verified', 'encrypted-content-other-organization']),
  upstreamSpec('h5-echo', ['must-echo-missing'], {
    echo: [
      {
        field: 'reasoning_content',
        turns: 'tool-call-turns',
        level: 'required',
        rejection: 'must-echo-missing',
        source: SRC,
      },
    ],
  }),
]);

const up = (provider: string, checks: Upstream['checks'], extra: Partial<Upstream> = {}): Upstream => ({
  models: `^${provider}/`,
  provider,
  providerName: `Name ${provider}`,
  checks,
  sources: ['https://gw.test/up'],
  ...extra,
});
const gateway = (upstreams: Upstream[] | undefined, target = 'h5-claude/claude-1'): ProviderSpec =>
  ({
    id: 'h5-gateway',
    label: 'Gateway',
    family: 'openai-chat',
    endpoint: { baseUrl: 'https://gw.test/v1', path: '/chat/completions' },
    target: { provider: 'gw', model: target },
    request: { schema: { type: 'object' } },
    echo: [],
    rejections: {},
    response: { carriers: [] },
    sources: ['https://gw.test'],
    ...(upstreams ? { upstreams } : {}),
  }) as unknown as ProviderSpec;

const claudeGateway = gateway([
  up('h5-claude', ['claude-signatures', 'claude-thinking-first'], {
    contested: { 'claude-thinking-first': { notes: 'n', sources: ['https://other.test/side'] } },
  }),
  up('h5-claude-bare', ['claude-signatures', 'claude-thinking-first']),
  up('h5-gemini', ['gemini-preserved-details'], {
    ownRejections: { 'missing-thought-signature': 'gw-gemini' },
    contested: { 'gemini-preserved-details': { notes: 'n', sources: ['https://other.test/g'] } },
  }),
  up('h5-openai', ['openai-encrypted-reasoning']),
  up('h5-echo', ['must-echo']),
]);

const call = (name = 'look') => ({ id: 'c1', type: 'function', function: { name, arguments: '{}' } });
const text = (t: string, ordinal: number, blocks?: number) => ({
  type: 'reasoning.text',
  text: t,
  signature: mockSignThinking(t, ordinal, undefined, blocks ? { blocks } : {}),
  format: 'anthropic-claude-v1',
});
const judge = (
  model: string,
  messages: unknown[],
  extra: Record<string, unknown> = {},
  spec = claudeGateway,
): Finding[] => judgeGatewayUpstream(spec, { model, messages, ...extra });
const loop = (assistant: Record<string, unknown>) => [
  { role: 'user', content: 'q' },
  { role: 'assistant', content: null, tool_calls: [call()], ...assistant },
  { role: 'tool', tool_call_id: 'c1', content: 'r' },
];
const rejections = (findings: Finding[]) => findings.map((f) => f.rejection);

describe('gateway judge: what it looks at', () => {
  it('judges nothing without upstreams, a body that is not an object, or messages that are not a list', () => {
    const bad = loop({ reasoning_details: [{ ...text('x', 0), signature: 'forged' }] });
    expect(judge('h5-claude/claude-1', bad, {}, gateway(undefined))).toEqual([]);
    expect(judgeGatewayUpstream(claudeGateway, 'not a body')).toEqual([]);
    expect(judgeGatewayUpstream(claudeGateway, { model: 'h5-claude/claude-1', messages: 'no' })).toEqual([]);
    expect(rejections(judge('h5-claude/claude-1', bad))).toEqual(['invalid-signature']);
  });

  it('takes the model from the body, else the gateway’s target; a model no upstream serves, or an unregistered upstream, is not judged', () => {
    const bad = loop({ reasoning_details: [{ ...text('x', 0), signature: 'forged' }] });
    expect(rejections(judgeGatewayUpstream(claudeGateway, { messages: bad }))).toEqual(['invalid-signature']);
    expect(judgeGatewayUpstream(gateway(claudeGateway.upstreams, 'other/x'), { model: 42, messages: bad })).toEqual([]);
    expect(judge('other/x', bad)).toEqual([]);
    expect(judge('nobody/x', bad, {}, gateway([up('nobody', ['claude-signatures'])]))).toEqual([]);
    expect(upstreamFor(gateway(undefined), 'h5-claude/x')).toBeUndefined();
  });

  it('reads the upstream’s rules for the model id without the gateway’s prefix (a variant may drop rules)', () => {
    const bad = loop({ reasoning_details: [{ ...text('x', 0), signature: 'forged' }] });
    expect(judge('h5-claude/lenient-1', bad)).toEqual([]);
    expect(rejections(judge('h5-claude/claude-lenient', bad))).toEqual(['invalid-signature']);
  });

  it('reports only rejections the upstream defines', () => {
    expect(
      judge('h5-claude-bare/claude-1', loop({ reasoning_details: [{ ...text('x', 0), signature: 'forged' }] }), {
        reasoning: { effort: 'high' },
      }),
    ).toEqual([]);
  });
});

describe('gateway judge: Claude signatures', () => {
  it('numbers messages as Claude does: system and developer messages leave, tool results and user messages merge', () => {
    const messages = [
      { role: 'system', content: 's' },
      { role: 'developer', content: 'd' },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call()],
        reasoning_details: [{ ...text('a', 0), signature: 'forged' }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
      { role: 'user', content: 'more' },
      { role: 'assistant', content: 'done', reasoning_details: [{ ...text('b', 0), signature: 'forged' }] },
      { role: 'user', content: 'next' },
    ];
    expect(judge('h5-claude/claude-1', messages).map((f) => [f.params.index, f.params.path])).toEqual([
      [1, 'messages.3.reasoning_details.0'],
      [3, 'messages.6.reasoning_details.0'],
    ]);
  });

  it('skips entries that are not objects (naming the item where it sits in the list as sent), items of other formats or types, and a reasoning_details that is not a list', () => {
    const forged = { ...text('x', 0), signature: 'forged' };
    expect(judge('h5-claude/claude-1', loop({ reasoning_details: 'junk' }))).toEqual([]);
    const others = [
      'junk',
      { type: 'reasoning.summary', summary: 's', format: 'anthropic-claude-v1' },
      { ...forged, format: 'google-gemini-v1' },
      forged,
    ];
    expect(judge('h5-claude/claude-1', loop({ reasoning_details: others })).map((f) => f.params.path)).toEqual([
      'messages.1.reasoning_details.3',
    ]);
  });

  it('leaves an unsigned text item of unnamed format behind (the signed one after it keeps its place), but sends one marked Claude’s with an empty signature', () => {
    const unnamed = { type: 'reasoning.text', text: 'plain' };
    expect(judge('h5-claude/claude-1', loop({ reasoning_details: [unnamed, text('x', 0)] }))).toEqual([]);
    expect(
      judge('h5-claude/claude-1', loop({ reasoning_details: [{ ...unnamed, signature: null }, text('x', 0)] })),
    ).toEqual([]);
    expect(
      rejections(
        judge('h5-claude/claude-1', loop({ reasoning_details: [{ ...unnamed, format: 'anthropic-claude-v1' }] })),
      ),
    ).toEqual(['invalid-signature']);
    // A signed item of unnamed format is taken for Claude's.
    expect(
      judge(
        'h5-claude/claude-1',
        loop({ reasoning_details: [{ type: 'reasoning.text', text: 'x', signature: mockSignThinking('x', 0) }] }),
      ),
    ).toEqual([]);
    // Text that is not a string is judged as empty: the signature no longer covers it.
    expect(
      rejections(judge('h5-claude/claude-1', loop({ reasoning_details: [{ ...text('x', 0), text: 7 }] }))),
    ).toEqual(['blocks-modified']);
  });

  it('verifies redacted items as redacted blocks, placed among their siblings', () => {
    const pair = [
      text('x', 0, 2),
      {
        type: 'reasoning.encrypted',
        data: mockRedactedData('s', 1, undefined, { blocks: 2 }),
        format: 'anthropic-claude-v1',
      },
    ];
    expect(judge('h5-claude/claude-1', loop({ reasoning_details: pair }))).toEqual([]);
    expect(
      rejections(
        judge('h5-claude/claude-1', loop({ reasoning_details: [pair[0], { ...pair[1], data: 'bm90IGlzc3VlZA==' }] })),
      ),
    ).toEqual(['invalid-redacted']);
  });

  it('says which item went, and where, in the finding’s words', () => {
    const [dropped] = judge('h5-claude/claude-1', [
      { role: 'system', content: 's' },
      ...loop({ reasoning_details: [text('x', 0, 2)] }),
    ]);
    expect(dropped).toEqual({
      rule: 'signatures-verbatim',
      rejection: 'blocks-modified',
      params: { index: 1, block: 1, role: 'assistant', path: 'messages.2.reasoning_details.1' },
      detail:
        '1 reasoning item(s) dropped after item 0 of message 2 (Name h5-claude message 1, content 1): blocks-modified',
      via: { provider: 'h5-claude', providerName: 'Name h5-claude' },
    });
    const [edited] = judge('h5-claude/claude-1', loop({ reasoning_details: [{ ...text('x', 0), text: 'y' }] }));
    expect(edited!.detail).toBe(
      'reasoning_details item 0 of message 1 (Name h5-claude message 1, content 0): blocks-modified',
    );
  });
});

describe('gateway judge: the current tool loop opens with Claude reasoning', () => {
  const opened = (
    assistant: Record<string, unknown>,
    extra: Record<string, unknown> = { reasoning: { effort: 'high' } },
  ) => judge('h5-claude/claude-1', loop(assistant), extra);

  it('asks for it only when reasoning is on (reasoning object or include_reasoning) and the request ends in a tool result', () => {
    expect(rejections(opened({}))).toEqual(['thinking-expected']);
    expect(rejections(opened({}, { reasoning: { max_tokens: 1024 } }))).toEqual(['thinking-expected']);
    expect(rejections(opened({}, { reasoning: { enabled: true } }))).toEqual(['thinking-expected']);
    expect(rejections(opened({}, { include_reasoning: true }))).toEqual(['thinking-expected']);
    expect(opened({}, { reasoning: { enabled: false, effort: 'high' } })).toEqual([]);
    expect(opened({}, { reasoning: {} })).toEqual([]);
    expect(opened({}, { include_reasoning: 'yes' })).toEqual([]);
    expect(opened({}, {})).toEqual([]);
    expect(
      judge('h5-claude/claude-1', [...loop({}), { role: 'assistant', content: 'done' }], {
        reasoning: { effort: 'high' },
      }),
    ).toEqual([]);
  });

  it('is satisfied by a Claude item on the loop’s first assistant message, and names what opens it otherwise', () => {
    expect(opened({ reasoning_details: [text('x', 0)] })).toEqual([]);
    const [f] = opened({ content: 'Let me look.' });
    expect(f).toEqual({
      rule: 'signatures-verbatim',
      rejection: 'thinking-expected',
      params: { index: 1, block: 0, found: 'text', role: 'assistant', path: 'messages.1.content.0.type' },
      detail: 'assistant message 1 opens the current tool loop without a Claude reasoning item',
      via: { provider: 'h5-claude', providerName: 'Name h5-claude' },
      contested: true,
      sources: ['https://gw.test/up', 'https://other.test/side'],
    });
    expect(opened({ content: '' })[0]!.params.found).toBe('tool_use');
  });

  it('looks at the loop after the last user message only, and needs an assistant message there', () => {
    const earlier = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'plain' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: null, tool_calls: [call()], reasoning_details: [text('x', 0)] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
    ];
    expect(judge('h5-claude/claude-1', earlier, { reasoning: { effort: 'high' } })).toEqual([]);
    expect(
      judge(
        'h5-claude/claude-1',
        [
          { role: 'user', content: 'a' },
          { role: 'tool', tool_call_id: 'c1', content: 'r' },
        ],
        { reasoning: { effort: 'high' } },
      ),
    ).toEqual([]);
  });
});

describe('gateway judge: Gemini’s encrypted detail on the current turn’s tool calls', () => {
  const gemini = (messages: unknown[]) => judge('h5-gemini/gemini-3', messages);

  it('wants a non-empty encrypted detail on each tool-call message after the last user message, and answers in the gateway’s own words', () => {
    const [f, ...rest] = gemini([
      { role: 'system', content: 's' },
      ...loop({
        reasoning_details: [
          { type: 'reasoning.text', text: 't', data: 'x' },
          { type: 'reasoning.encrypted', data: '' },
        ],
      }),
    ]);
    expect(rest).toEqual([]);
    expect(f).toEqual({
      rule: 'signatures-verbatim',
      rejection: 'missing-thought-signature',
      params: { field: 'look', index: 1, position: 2, path: 'messages.2.reasoning_details' },
      detail:
        'tool-call message 2 of the current turn has no encrypted reasoning detail (Gemini\u2019s thought signature)'.replace(
          '\u2019',
          "'",
        ),
      via: { provider: 'h5-gemini', providerName: 'Name h5-gemini', gatewayRejection: 'gw-gemini' },
      contested: true,
      sources: ['https://gw.test/up', 'https://other.test/g'],
    });
    expect(gemini(loop({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'sig' }] }))).toEqual([]);
    expect(rejections(gemini(loop({ reasoning_details: [{ type: 'reasoning.encrypted', data: 7 }] })))).toEqual([
      'missing-thought-signature',
    ]);
  });

  it('leaves earlier turns, answers without tool calls and other roles alone, and names a call without a function ""', () => {
    expect(
      gemini([
        { role: 'assistant', content: null, tool_calls: [call()] },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
        { role: 'user', content: 'q' },
      ]),
    ).toEqual([]);
    expect(
      gemini([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'plain', tool_calls: [] },
        { role: 'tool', content: 'x', tool_calls: [call()] },
      ]),
    ).toEqual([]);
    expect(
      gemini([
        { role: 'user', content: 'q' },
        'junk',
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] },
      ])[0]!.params.field,
    ).toBe('');
    expect(
      gemini([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', function: { name: 3 } }] },
      ])[0]!.params.field,
    ).toBe('');
  });
});

describe('gateway judge: OpenAI’s encrypted reasoning and must-echo upstreams', () => {
  it('checks only encrypted items of the Responses format on assistant messages, with the item’s place', () => {
    const item = { type: 'reasoning.encrypted', id: 'rs_1', data: 'not-issued', format: 'openai-responses-v1' };
    const [f] = judge(
      'h5-openai/gpt-5',
      loop({ reasoning_details: ['junk', { type: 'reasoning.text', text: 't', format: 'openai-responses-v1' }, item] }),
    );
    expect(f).toMatchObject({
      rejection: 'encrypted-content-not-verified',
      params: { index: 1, path: 'rs_1' },
      via: { provider: 'h5-openai' },
    });
    // The path names the item where it sits in the list as sent, a non-object entry before it included.
    expect(f!.detail).toBe(
      'encrypted_content of rs_1 at messages.1.reasoning_details.2 is not what the server issued for that item',
    );
    expect(judge('h5-openai/gpt-5', loop({ reasoning_details: [{ ...item, format: 'anthropic-claude-v1' }] }))).toEqual(
      [],
    );
    expect(judge('h5-openai/gpt-5', [{ role: 'user', content: 'q', reasoning_details: [item] }])).toEqual([]);
    expect(judge('h5-openai/gpt-5', loop({ reasoning_details: [{ ...item, id: 5 }] }))[0]!.detail).toContain(
      'an id-less reasoning item',
    );
  });

  it('lets reasoning or reasoning_details satisfy an upstream’s reasoning_content echo', () => {
    expect(rejections(judge('h5-echo/r1', loop({})))).toEqual(['must-echo-missing']);
    expect(judge('h5-echo/r1', loop({ reasoning: 'r' }))).toEqual([]);
    expect(judge('h5-echo/r1', loop({ reasoning_details: [{ type: 'reasoning.text', text: 'r' }] }))).toEqual([]);
  });

  it('puts contested findings after the others, and marks only those', () => {
    const both = gateway([
      up('h5-claude', ['claude-thinking-first', 'claude-signatures'], {
        contested: { 'claude-thinking-first': { notes: 'n', sources: ['https://other.test/side'] } },
      }),
    ]);
    const messages = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'x', reasoning_details: [{ ...text('x', 0), signature: 'forged' }] },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: null, tool_calls: [call()] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
    ];
    const found = judge('h5-claude/claude-1', messages, { reasoning: { effort: 'high' } }, both);
    expect(found.map((f) => [f.rejection, f.contested ?? false])).toEqual([
      ['invalid-signature', false],
      ['thinking-expected', true],
    ]);
  });
});

describe('rejectionSpec', () => {
  it('is the gateway’s own spec for its own finding, the upstream’s rules for the model for a passed-on one, none for an unknown upstream', () => {
    const own: Finding = { rule: 'provider-accepts', rejection: 'x', params: {} };
    expect(rejectionSpec(claudeGateway, own, 'h5-claude/claude-1')).toBe(claudeGateway);
    const passed = { ...own, via: { provider: 'h5-claude', providerName: 'n' } } as Finding;
    expect(Object.keys(rejectionSpec(claudeGateway, passed, 'h5-claude/lenient-1')!.rejections)).not.toContain(
      'invalid-signature',
    );
    expect(Object.keys(rejectionSpec(claudeGateway, passed, 'h5-claude/claude-1')!.rejections)).toContain(
      'invalid-signature',
    );
    expect(
      rejectionSpec(claudeGateway, { ...own, via: { provider: 'nobody', providerName: 'n' } } as Finding, 'x'),
    ).toBeUndefined();
  });
});

describe('gateway judge: edges a second Stryker run left', () => {
  const forged = { ...text('x', 0), signature: 'forged' };

  it('merges consecutive assistant messages into one Claude turn, and a system message between them does not split it', () => {
    const messages = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'system', content: 's' },
      { role: 'assistant', content: null, tool_calls: [call()], reasoning_details: [forged] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
    ];
    expect(judge('h5-claude/claude-1', messages)[0]!.params.index).toBe(1);
    const developer = messages.map((m) => (m.role === 'system' ? { role: 'developer', content: 'd' } : m));
    expect(judge('h5-claude/claude-1', developer)[0]!.params.index).toBe(1);
  });

  it('takes a forged item of unnamed format for Claude’s, and an unsigned redacted item of unnamed format too', () => {
    expect(
      rejections(
        judge(
          'h5-claude/claude-1',
          loop({ reasoning_details: [{ type: 'reasoning.text', text: 'x', signature: 'forged' }] }),
        ),
      ),
    ).toEqual(['invalid-signature']);
    expect(
      rejections(
        judge(
          'h5-claude/claude-1',
          loop({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'bm90IGlzc3VlZA==' }] }),
        ),
      ),
    ).toEqual(['invalid-redacted']);
  });

  it('judges text that is not a string as empty text', () => {
    expect(
      judge(
        'h5-claude/claude-1',
        loop({
          reasoning_details: [
            { type: 'reasoning.text', text: 7, signature: mockSignThinking('', 0), format: 'anthropic-claude-v1' },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('judges assistant messages only', () => {
    expect(judge('h5-claude/claude-1', [{ role: 'user', content: 'q', reasoning_details: [forged] }])).toEqual([]);
  });

  it('names the place after the last item left when the third of three blocks was dropped', () => {
    const [f] = judge('h5-claude/claude-1', loop({ reasoning_details: [text('a', 0, 3), text('b', 1, 3)] }));
    expect(f).toMatchObject({
      rejection: 'blocks-modified',
      params: { block: 2, path: 'messages.1.reasoning_details.2' },
    });
    expect(f!.detail).toMatch(/^1 reasoning item\(s\) dropped after item 1 of message 1/);
  });

  it('disputes only an unsigned text item, and only where the upstream names the dispute', () => {
    const disputing = gateway([
      up('h5-claude', ['claude-signatures'], {
        contested: { 'claude-unsigned-text': { notes: 'n', sources: ['https://other.test/u'] } },
      }),
    ]);
    const unsigned = { type: 'reasoning.text', text: 'x', format: 'anthropic-claude-v1' };
    expect(judge('h5-claude/claude-1', loop({ reasoning_details: [unsigned] }), {}, disputing)[0]).toMatchObject({
      contested: true,
      sources: ['https://gw.test/up', 'https://other.test/u'],
    });
    expect(
      judge(
        'h5-claude/claude-1',
        loop({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'bad', format: 'anthropic-claude-v1' }] }),
        {},
        disputing,
      )[0]!.contested,
    ).toBeUndefined();
    const plain = gateway([up('h5-claude', ['claude-signatures'])]);
    expect(judge('h5-claude/claude-1', loop({ reasoning_details: [unsigned] }), {}, plain)[0]).toMatchObject({
      rejection: 'invalid-signature',
    });
    expect(
      judge('h5-claude/claude-1', loop({ reasoning_details: [unsigned] }), {}, plain)[0]!.contested,
    ).toBeUndefined();
  });

  it('finds the loop opener at the very first message, sees past entries that are not objects, and answers in the gateway’s words where it has them', () => {
    const own = gateway([
      up('h5-claude', ['claude-thinking-first'], { ownRejections: { 'thinking-expected': 'gw-te' } }),
    ]);
    const [f] = judge(
      'h5-claude/claude-1',
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [call()],
          reasoning_details: [null, { type: 'reasoning.encrypted', data: 'g', format: 'google-gemini-v1' }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
      ],
      { reasoning: { effort: 'high' } },
      own,
    );
    expect(f).toMatchObject({
      rejection: 'thinking-expected',
      params: { index: 0 },
      via: { gatewayRejection: 'gw-te' },
    });
  });

  it('Gemini: needs the upstream to define the refusal, and judges a turn when no user message came before it', () => {
    expect(
      judge('h5-claude-bare/x', loop({}), {}, gateway([up('h5-claude-bare', ['gemini-preserved-details'])])),
    ).toEqual([]);
    expect(
      rejections(
        judge('h5-gemini/gemini-3', [
          { role: 'system', content: 's' },
          { role: 'assistant', content: null, tool_calls: [call()] },
        ]),
      ),
    ).toEqual(['missing-thought-signature']);
  });
});
