import { describe, expect, it } from 'vitest';
import type { History } from '../../shared/history/history.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { checkRequest, type SentRequest } from './cell-checks.js';
import { policyFor } from '../../shared/route-table/policy-for.js';

const table = loadRouteTable();
const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));

const history: History = {
  messages: [
    { role: 'user', content: 'q' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'stored thought',
      reasoning_details: [
        { type: 'reasoning.text', text: 'stored thought', signature: 'SIG-AAAAAAAAAAAA' },
        { type: 'reasoning.encrypted', data: 'ENC-BBBBBBBBBBBB' },
      ],
      native: { route: 'gemini', fields: { thoughtSignature: 'NATIVE-CCCCCCCCCC' } },
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'r' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c2', type: 'function', function: { name: 't', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c2', content: 'r' },
  ],
};

/** The body a correct engine would send for `provider`, with `edit` applied to message `index`. */
function judge(
  provider: string,
  edit: (messages: Array<Record<string, unknown>>) => void,
  over: { history?: History; judgedBy?: SentRequest['judgedBy'] } = {},
) {
  return judged(provider, edit, over).map((p) => `${p.behaviour}: ${p.detail}`);
}

/** The checks for `provider`'s body, with their status (warnings included). */
function judged(
  provider: string,
  edit: (messages: Array<Record<string, unknown>>) => void,
  { history: h = history, judgedBy }: { history?: History; judgedBy?: SentRequest['judgedBy'] } = {},
) {
  const spec = specs.get(provider)!;
  const policy = policyFor(table, spec);
  const messages = h.messages.map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  })) as Array<Record<string, unknown>>;
  edit(messages);
  const request: SentRequest = {
    call: 0,
    history: h,
    body: { model: 'm', messages },
    policy,
    spec,
    ...(judgedBy ? { judgedBy } : {}),
  };
  return checkRequest(request).problems;
}

describe('per-call checks catch a broken engine', () => {
  it('passes a correct DeepSeek body (stored text, then the pad)', () => {
    const problems = judge('deepseek', (m) => {
      m[1]!.reasoning_content = 'stored thought';
      m[3]!.reasoning_content = ' ';
    });
    expect(problems).toEqual([]);
  });

  it('flags the pad where reasoning was stored, and invented reasoning where none was', () => {
    const problems = judge('deepseek', (m) => {
      m[1]!.reasoning_content = ' ';
      m[3]!.reasoning_content = 'made up';
    });
    expect(problems).toEqual([
      expect.stringMatching(/^must-echo: .*message 1 got the " " pad/),
      expect.stringMatching(/^must-echo: .*message 3 has no readable reasoning but was sent "made up"/),
    ]);
  });

  it('flags the pad leaking to a standard route', () => {
    expect(
      judge(
        'openrouter',
        (m) =>
          Object.assign(m[1]!, {
            reasoning: 'stored thought',
            reasoning_content: 'stored thought',
            reasoning_details: history.messages[1]!.reasoning_details,
          }) && Object.assign(m[3]!, { reasoning_content: ' ' }),
      ),
    ).toEqual([expect.stringMatching(/^must-echo: .*pad leaked to standard route openrouter at message 3/)]);
  });

  it('flags a field a route does not read, and any key on a strict route', () => {
    expect(
      judge(
        'deepseek',
        (m) =>
          Object.assign(m[1]!, { reasoning_content: 'stored thought', reasoning: 'x' }) &&
          Object.assign(m[3]!, { reasoning_content: ' ' }),
      ),
    ).toEqual([
      expect.stringMatching(/^fields-sent: .*message 1 carries reasoning, which route deepseek does not read/),
    ]);
    expect(judge('mistral', (m) => Object.assign(m[3]!, { reasoning_content: ' ' }))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^strict-schema: call 0: strict route mistral was sent reasoning_content/),
      ]),
    );
  });

  it('flags a signed item that was edited, and items that were reordered', () => {
    const [signed, encrypted] = history.messages[1]!.reasoning_details!;
    const base = { reasoning: 'stored thought', reasoning_content: 'stored thought' };
    expect(
      judge('openrouter', (m) =>
        Object.assign(m[1]!, base, { reasoning_details: [{ ...signed, signature: 'SIG-AAAAAAAAAAAB' }, encrypted] }),
      ),
    ).toEqual([
      expect.stringMatching(/^signatures-verbatim: .*1 of 2 signed\/encrypted item\(s\) of message 1 did not reach/),
    ]);
    expect(judge('openrouter', (m) => Object.assign(m[1]!, base, { reasoning_details: [encrypted, signed] }))).toEqual([
      expect.stringMatching(/^signatures-verbatim: .*were reordered/),
    ]);
  });

  it('flags a native record reaching a route that does not own it', () => {
    expect(
      judge(
        'deepseek',
        (m) =>
          Object.assign(m[1]!, {
            reasoning_content: 'stored thought',
            extra_content: { google: { thought_signature: 'NATIVE-CCCCCCCCCC' } },
          }) && Object.assign(m[3]!, { reasoning_content: ' ' }),
      ),
    ).toEqual([expect.stringMatching(/^native-scoped: .*gemini native record of message 1 leaked to route deepseek/)]);
  });
});

/** A must-echo history with a plain turn, and a tool turn whose reasoning survives only as a readable typed item. */
const plainAndItems: History = {
  messages: [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: 'plain answer' },
    { role: 'user', content: 'again' },
    {
      role: 'assistant',
      content: null,
      reasoning_details: [{ type: 'reasoning.text', text: 'kept only as an item' }],
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'r' },
  ],
};

describe('an engine judged by harm (check --engine)', () => {
  const statuses = (checks: ReturnType<typeof judged>) => checks.map((c) => `${c.status} ${c.behaviour}`);

  it("warns, naming this project's choice and why, for the pad on a plain turn; this project's engine fails", () => {
    const padPlain = (m: Array<Record<string, unknown>>) => {
      m[1]!.reasoning_content = ' ';
      m[3]!.reasoning_content = 'kept only as an item';
    };
    const harm = judged('deepseek', padPlain, { history: plainAndItems, judgedBy: 'harm' });
    expect(statuses(harm)).toEqual(['warn must-echo']);
    expect(harm[0]!.detail).toMatch(/plain assistant message 1 .*providers accept it.*decisions\/0002-the-pad\.md/);
    expect(statuses(judged('deepseek', padPlain, { history: plainAndItems }))).toEqual(['fail must-echo']);
  });

  it('fails the pad sent where the reasoning survives only as readable typed items, on either contract', () => {
    const padItems = (m: Array<Record<string, unknown>>) => void (m[3]!.reasoning_content = ' ');
    for (const judgedBy of ['harm', 'contract'] as const) {
      const checks = judged('deepseek', padItems, { history: plainAndItems, judgedBy });
      expect(statuses(checks)).toEqual(['fail must-echo']);
      expect(checks[0]!.detail).toMatch(/message 3 got the " " pad .*only as readable reasoning_details items/);
    }
  });

  it('fails the pad on a plain turn that holds readable reasoning: it stands where the reasoning belonged', () => {
    const withText: History = {
      messages: plainAndItems.messages.map((m, i) => (i === 1 ? { ...m, reasoning: 'plain thought' } : m)),
    };
    const checks = judged(
      'deepseek',
      (m) => {
        m[1]!.reasoning_content = ' ';
        m[3]!.reasoning_content = 'kept only as an item';
      },
      { history: withText, judgedBy: 'harm' },
    );
    expect(statuses(checks)).toEqual(['fail must-echo']);
  });

  it('fails the pad off the must-echo tier (a must-echo carrier on the wrong route) and carriers a route does not read', () => {
    const padOpenRouter = (m: Array<Record<string, unknown>>) =>
      Object.assign(m[1]!, {
        reasoning: 'stored thought',
        reasoning_content: 'stored thought',
        reasoning_details: history.messages[1]!.reasoning_details,
      }) && Object.assign(m[3]!, { reasoning_content: ' ' });
    expect(statuses(judged('openrouter', padOpenRouter, { judgedBy: 'harm' }))).toEqual(['fail must-echo']);
    const wrongCarrier = (m: Array<Record<string, unknown>>) =>
      Object.assign(m[1]!, { reasoning_content: 'stored thought', reasoning: 'x' }) &&
      Object.assign(m[3]!, { reasoning_content: ' ' });
    expect(statuses(judged('deepseek', wrongCarrier, { judgedBy: 'harm' }))).toEqual(['fail fields-sent']);
  });
});

describe('Bedrock strip policy (Kimi K2 Thinking on Bedrock): the loop in progress keeps its reasoning', () => {
  const thinking = (text: string) => ({ type: 'thinking' as const, thinking: text });
  const call = (id: string) => [{ id, type: 'function' as const, function: { name: 'convert', arguments: '{}' } }];
  /** A finished tool loop, a new question, and a tool loop in progress. */
  const strip: History = {
    messages: [
      { role: 'user', content: 'Convert 40 EUR.' },
      { role: 'assistant', content: null, reasoning_details: [thinking('earlier loop')], tool_calls: call('t1') },
      { role: 'tool', tool_call_id: 't1', content: '43.2' },
      { role: 'assistant', content: '43.20 USD.', reasoning_details: [thinking('earlier answer')] },
      { role: 'user', content: 'Now 90 GBP.' },
      { role: 'assistant', content: null, reasoning_details: [thinking('loop in progress')], tool_calls: call('t2') },
      { role: 'tool', tool_call_id: 't2', content: '17100' },
    ],
  };
  const spec = specs.get('bedrock-kimi-k2-thinking')!;
  const policy = policyFor(table, spec);
  /** The Converse body with reasoningText on the history turns named. */
  const body = (withReasoning: number[]) => ({
    messages: strip.messages
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.role === 'assistant')
      .map(({ m, i }) => ({
        role: 'assistant',
        content: [
          ...(withReasoning.includes(i)
            ? [
                {
                  reasoningContent: {
                    reasoningText: { text: (m.reasoning_details![0] as { thinking: string }).thinking },
                  },
                },
              ]
            : []),
          { text: 'x' },
        ],
      })),
  });
  const checks = (withReasoning: number[], judgedBy?: SentRequest['judgedBy']) =>
    checkRequest({
      call: 0,
      history: strip,
      body: body(withReasoning),
      policy,
      spec,
      ...(judgedBy ? { judgedBy } : {}),
    })
      .problems.filter((c) => c.behaviour === 'fields-sent')
      .map((c) => `${c.status} ${c.detail.replace(/^.*?\): /, '')}`);

  it('is strip in the table, so the right body passes', () => {
    expect(policy.replayPolicy).toBe('strip');
    expect(checks([5])).toEqual([]);
  });

  it('fails a body that stripped the loop in progress, on either contract: its reasoning is lost', () => {
    for (const judgedBy of ['harm', 'contract'] as const)
      expect(checks([], judgedBy)).toEqual([
        'fail message 5 is inside the current tool loop (after message 4) but its reasoning was stripped',
      ]);
  });

  it("warns an engine under --engine that kept the earlier turns' reasoning (accepted, nothing lost); fails this project's", () => {
    const kept = checks([1, 3, 5], 'harm');
    expect(kept.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual(['warn message 1,', 'warn message 3,']);
    expect(kept[0]).toMatch(/a choice, not harm: .*decisions\/0010-bedrock-split-point\.md/);
    expect(checks([1, 3, 5]).map((c) => c.split(' ')[0])).toEqual(['fail', 'fail']);
  });
});
