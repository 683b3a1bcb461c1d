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
function judge(provider: string, edit: (messages: Array<Record<string, unknown>>) => void) {
  const spec = specs.get(provider)!;
  const policy = policyFor(table, spec);
  const messages = history.messages.map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  })) as Array<Record<string, unknown>>;
  edit(messages);
  const request: SentRequest = { call: 0, history, body: { model: 'm', messages }, policy, spec };
  return checkRequest(request).problems.map((p) => `${p.behaviour}: ${p.detail}`);
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
