import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { mockOpaque } from '../../signing/mock-opaque.js';
import { judgeCopilot } from './request-rules.js';

/**
 * Copilot's judge, driven directly with a hand-made spec: the family test reaches it only through
 * replayed histories, which always hold one well-formed tool loop. These cases pin what it names
 * (message index, path, field) and where it looks (current turn, assistant tool-call messages).
 */

const spec = (rejections = ['missing-opaque', 'invalid-opaque'], model = 'claude-sonnet-4.5') =>
  ({
    target: { provider: 'copilot', model },
    rejections: Object.fromEntries(rejections.map((r) => [r, { sources: [] }])),
  }) as unknown as ProviderSpec;
const OPAQUE = mockOpaque('copilot', 'opaque', 'seed');
const SIGNATURE = mockOpaque('copilot', 'thought-signature', 'seed');
const toolTurn = (extra: Record<string, unknown> = {}, fn: Record<string, unknown> = {}) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}', ...fn } }],
  ...extra,
});
const judged = (messages: unknown[], s = spec(), model?: string) =>
  judgeCopilot(s, { ...(model ? { model } : {}), messages });

describe('judgeCopilot', () => {
  it('names a current tool-call message without its opaque by index and path', () => {
    expect(judged([{ role: 'user', content: 'q' }, toolTurn()])).toStrictEqual([
      {
        rule: 'signatures-verbatim',
        rejection: 'missing-opaque',
        params: { index: 1, role: 'assistant', field: 'reasoning_opaque', path: 'messages.1.reasoning_opaque' },
        detail: 'tool-call message 1 of the current turn has no reasoning_opaque',
      },
    ]);
    expect(judged([toolTurn()]).map((f) => f.params.index)).toStrictEqual([0]);
  });

  it('asks for the opaque only on the current turn, and only of assistant tool-call messages', () => {
    expect(judged([{ role: 'user', content: 'q1' }, toolTurn(), { role: 'user', content: 'q2' }])).toStrictEqual([]);
    expect(
      judged([
        { role: 'user', content: 'q' },
        null,
        { role: 'tool', tool_calls: [{}] },
        { role: 'assistant', content: 'a', tool_calls: [] },
      ]),
    ).toStrictEqual([]);
  });

  it('names a forged opaque and a forged thought signature, each at its own path', () => {
    const findings = judged([
      { role: 'user', content: 'q' },
      toolTurn({ reasoning_opaque: 'forged' }, { thought_signature: 'forged' }),
    ]);
    expect(findings.map((f) => [f.rejection, f.params.path, f.params.field, f.detail])).toStrictEqual([
      [
        'invalid-opaque',
        'messages.1.reasoning_opaque',
        'reasoning_opaque',
        'message 1 carries a reasoning_opaque Copilot never issued',
      ],
      [
        'invalid-opaque',
        'messages.1.tool_calls.0.function.thought_signature',
        'thought_signature',
        'tool call 0 of message 1 carries a thought_signature Copilot never issued',
      ],
    ]);
    expect(
      findings.every((f) => f.rule === 'signatures-verbatim' && f.params.index === 1 && f.params.role === 'assistant'),
    ).toBe(true);
    expect(
      judged([
        { role: 'user', content: 'q' },
        toolTurn({ reasoning_opaque: OPAQUE }, { thought_signature: SIGNATURE }),
      ]),
    ).toStrictEqual([]);
  });

  it('answers only with the rejections the spec defines', () => {
    expect(
      judged([{ role: 'user', content: 'q' }, toolTurn({ reasoning_opaque: 'forged' })], spec(['missing-opaque'])),
    ).toStrictEqual([]);
    expect(judged([{ role: 'user', content: 'q' }, toolTurn()], spec(['invalid-opaque']))).toStrictEqual([]);
  });

  it('judges only Gemini and Claude models, read from the body before the spec', () => {
    expect(judged([{ role: 'user', content: 'q' }, toolTurn()], spec(), 'gpt-4.1')).toStrictEqual([]);
    expect(
      judged([{ role: 'user', content: 'q' }, toolTurn()], spec(undefined, 'gpt-4.1'), 'gemini-3-pro-preview'),
    ).toHaveLength(1);
    expect(judged([{ role: 'user', content: 'q' }, toolTurn()], spec(undefined, 'gpt-4.1'))).toStrictEqual([]);
  });

  it('judges only a chat body, and reads a tool call without a function object', () => {
    expect(judgeCopilot(spec(), 'text')).toStrictEqual([]);
    expect(judgeCopilot(spec(), { input: [] })).toStrictEqual([]);
    expect(
      judged([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, reasoning_opaque: OPAQUE, tool_calls: [{ id: 'c1' }] },
      ]),
    ).toStrictEqual([]);
  });
});
