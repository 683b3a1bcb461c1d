import { describe, expect, it } from 'vitest';
import { judgeMessageEchoes } from '../../../provider/rules/message-echo-judge.js';
import { carrierDiff } from './carrier-diff.js';
import { deepseekBody, spec } from './run-report.test-helper.js';

describe('carrierDiff: what the provider wanted back beside what was sent, turn by turn', () => {
  it('a DeepSeek tool turn without reasoning_content: wanted, not sent, and the finding on that turn', () => {
    const body = deepseekBody({ reasoning: false });
    const diff = carrierDiff(body, spec('deepseek'), judgeMessageEchoes(spec('deepseek'), body));
    expect(diff.list).toBe('messages');
    expect(diff.turns).toHaveLength(1);
    const [turn] = diff.turns;
    expect(turn).toMatchObject({ at: 'messages[1]', role: 'assistant', toolCall: true, status: 'refused', sent: [] });
    expect(turn!.wanted).toEqual([
      expect.objectContaining({ carrier: 'reasoning_content', level: 'required', sent: false }),
    ]);
    expect(turn!.findings.map((f) => f.rejection)).toEqual(['reasoning-content-not-passed-back']);
  });

  it('the same turn with reasoning_content: sent, with its value shown', () => {
    const body = deepseekBody({ reasoning: true });
    const [turn] = carrierDiff(body, spec('deepseek'), []).turns;
    expect(turn!.status).toBe('ok');
    expect(turn!.wanted[0]!.sent).toBe(true);
    expect(turn!.sent).toEqual([
      { path: 'messages[1].reasoning_content', carrier: 'reasoning_content', preview: '"I should search the notes."' },
    ]);
  });

  it('a final plain answer without reasoning_content: wanted by a contested rule, so a warning', () => {
    const body = deepseekBody({ reasoning: true, plainAnswer: true });
    const turns = carrierDiff(body, spec('deepseek'), []).turns;
    expect(turns.map((t) => [t.at, t.toolCall, t.status])).toEqual([
      ['messages[1]', true, 'ok'],
      ['messages[3]', false, 'missing'],
    ]);
    expect(turns[0]!.wanted[0]!.contested).toBe(false);
    expect(turns[1]!.wanted).toEqual([
      expect.objectContaining({ carrier: 'reasoning_content', sent: false, contested: true }),
    ]);
  });

  it('no carrier is wanted where the body switches the rule off (thinking disabled)', () => {
    const body = { ...deepseekBody({ reasoning: false }), thinking: { type: 'disabled' } };
    const [turn] = carrierDiff(body, spec('deepseek'), []).turns;
    expect(turn!.wanted).toEqual([]);
    expect(turn!.status).toBe('ok');
  });

  it('Claude thinking blocks are carriers where they sit, signature and all', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'plan', signature: 'sig-abc' },
            { type: 'tool_use', id: 't1', name: 'f', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      ],
    };
    const [turn] = carrierDiff(body, spec('anthropic'), []).turns;
    expect(turn!.toolCall).toBe(true);
    expect(turn!.sent.map((s) => [s.path, s.carrier])).toEqual([['messages[1].content[0]', 'thinking']]);
    expect(turn!.sent[0]!.preview).toContain('sig-abc');
    expect(turn!.wanted).toEqual([expect.objectContaining({ carrier: 'thinking', level: 'required', sent: true })]);
  });

  it('Gemini thoughtSignature on a functionCall part; a model turn without one is missing it', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'c2ln' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
      ],
    };
    const turns = carrierDiff(body, spec('gemini'), []).turns;
    expect(turns.map((t) => [t.at, t.status])).toEqual([
      ['contents[1]', 'ok'],
      ['contents[3]', 'missing'],
    ]);
    expect(turns[0]!.sent[0]!.path).toBe('contents[1].parts[0].thoughtSignature');
  });

  it('a Responses turn is the run of items between asks: reasoning and function_call together', () => {
    const body = {
      input: [
        { role: 'user', content: 'hi' },
        { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA', summary: [] },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
        { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
      ],
    };
    const turns = carrierDiff(body, spec('openai-responses'), []).turns;
    expect(turns.map((t) => [t.at, t.toolCall, t.sent.map((s) => s.carrier), t.status])).toEqual([
      ['input[1..2]', true, ['reasoning'], 'ok'],
      ['input[4]', true, [], 'missing'],
    ]);
  });

  it('previous_response_id names reasoning the server keeps; a body with no conversation has no turns', () => {
    expect(carrierDiff({ previous_response_id: 'resp_1', input: 'next' }, spec('openai-responses'), [])).toEqual({
      list: null,
      turns: [],
      byReference: ['previous_response_id "resp_1"'],
    });
    expect(carrierDiff('not json', spec('deepseek'), [])).toEqual({ list: null, turns: [], byReference: [] });
  });

  it('masks anything credential-shaped in a value once more, and cuts long values', () => {
    const body = deepseekBody({ reasoning: true });
    (body.messages as Array<Record<string, unknown>>)[1]!.reasoning_content =
      `use key sk-proj-${'A1b2C3d4'.repeat(6)} then ${'x'.repeat(500)}`;
    const [sent] = carrierDiff(body, spec('deepseek'), []).turns[0]!.sent;
    expect(sent!.preview).not.toContain('A1b2C3d4A1b2C3d4');
    expect(sent!.preview.length).toBeLessThanOrEqual(120);
  });
});
