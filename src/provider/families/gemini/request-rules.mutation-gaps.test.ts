import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { mockOpaque } from '../../signing/mock-opaque.js';
import { googleFieldPath, judgeGemini } from './request-rules.js';

/**
 * Gemini's judge driven directly with a hand-made spec (a small closed schema, the rejections it
 * defines, the endpoint that picks the signing key): the family test reaches it only through one
 * replayed tool loop on the bundled spec. These cases pin what a client is told (which rejection,
 * which content and part, which field and path) and where the judge looks (current turn, first
 * call of a step, spelling of parts).
 */

const ALL = [
  'unknown-name',
  'unknown-name-at',
  'invalid-argument',
  'corrupted-thought-signature',
  'missing-thought-signature',
  'contents-not-specified',
  'parts-empty',
];
const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    contents: {
      type: 'array',
      items: { type: 'object', properties: { role: { enum: ['user', 'model'] }, parts: { type: 'array' } } },
    },
    generationConfig: {
      type: 'object',
      additionalProperties: false,
      properties: { maxOutputTokens: { type: 'integer' } },
    },
  },
};
const spec = (rejections = ALL, baseUrl = 'https://generativelanguage.googleapis.com/v1beta'): ProviderSpec =>
  ({
    endpoint: { baseUrl },
    request: { schema: SCHEMA },
    rejections: Object.fromEntries(rejections.map((r) => [r, { status: 400, sources: [] }])),
  }) as unknown as ProviderSpec;
const SIGNED = mockOpaque('gemini', 'thought', 'gaps');
const VERTEX_SIGNED = mockOpaque('vertex-gemini', 'thought', 'gaps');

const ask = (text = 'q') => ({ role: 'user', parts: [{ text }] });
const step = (...parts: unknown[]) => ({ role: 'model', parts });
const call = (name: string, signature?: unknown) => ({
  functionCall: { name, args: {} },
  ...(signature === undefined ? {} : { thoughtSignature: signature }),
});
const results = { role: 'user', parts: [{ functionResponse: { name: 'ls', response: {} } }] };
const judged = (contents: unknown[], s = spec()) => judgeGemini(s, { contents });

describe('googleFieldPath', () => {
  it("writes a JSON pointer in Google's proto notation", () => {
    expect(googleFieldPath('')).toBe('');
    expect(googleFieldPath('/generationConfig')).toBe('generation_config');
    expect(googleFieldPath('/contents/7/parts/0/functionResponse')).toBe('contents[7].parts[0].function_response');
    expect(googleFieldPath('/generationConfig/thinkingConfig')).toBe('generation_config.thinking_config');
    // Only a whole segment of digits is a list index.
    expect(googleFieldPath('/a1/2b/3')).toBe('a1.2b[3]');
    expect(googleFieldPath('/contents/12/parts/10')).toBe('contents[12].parts[10]');
  });
});

describe('judgeGemini: the body as a whole', () => {
  it('answers a body that is not a JSON object with invalid-argument at the root, when the spec has it', () => {
    for (const body of [null, [], 'text']) {
      expect(judgeGemini(spec(), body)).toStrictEqual([
        {
          rule: 'provider-accepts',
          rejection: 'invalid-argument',
          params: { path: '' },
          detail: 'the body is not a JSON object',
        },
      ]);
      expect(judgeGemini(spec(['unknown-name']), body)).toStrictEqual([]);
    }
  });

  it('answers missing or empty contents before anything else, and only with that rejection', () => {
    const expected = [
      {
        rule: 'provider-accepts',
        rejection: 'contents-not-specified',
        params: { path: 'contents' },
        detail: 'contents is missing or empty',
      },
    ];
    expect(judgeGemini(spec(), { stray: 1 })).toStrictEqual(expected);
    expect(judgeGemini(spec(), { contents: [], stray: 1 })).toStrictEqual(expected);
    // Without that rejection the schema speaks: the unknown key is named.
    expect(
      judgeGemini(spec(ALL.filter((r) => r !== 'contents-not-specified')), { stray: 1 }).map((f) => f.rejection),
    ).toStrictEqual(['unknown-name']);
    expect(judgeGemini(spec(ALL.filter((r) => r !== 'contents-not-specified')), { contents: [] })).toStrictEqual([]);
  });

  it('names the first content without parts, before the schema', () => {
    expect(
      judgeGemini(spec(), { contents: [ask(), { role: 'model', parts: [] }, { role: 'user', parts: [] }], stray: 1 }),
    ).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'parts-empty',
        params: { index: 1, path: 'contents[1].parts' },
        detail: 'content 1 has no parts',
      },
    ]);
    expect(judgeGemini(spec(), { contents: [{ role: 'user', parts: [] }] })[0]?.params).toStrictEqual({
      index: 0,
      path: 'contents[0].parts',
    });
    // A content that is not an object, or has no parts list, is not "empty parts".
    expect(judgeGemini(spec(), { contents: [ask(), 'x', { role: 'user' }] }).map((f) => f.params)).toStrictEqual([
      { path: 'contents[1]' },
    ]);
    expect(
      judgeGemini(spec(ALL.filter((r) => r !== 'parts-empty')), { contents: [{ role: 'user', parts: [] }] }),
    ).toStrictEqual([]);
  });
});

describe('judgeGemini: the request schema in Google words', () => {
  it('names an unknown top-level key without a path and a nested one with its parent path', () => {
    expect(judgeGemini(spec(), { contents: [ask()], reasoning: {} })).toStrictEqual([
      {
        rule: 'strict-schema',
        rejection: 'unknown-name',
        params: { field: 'reasoning', path: '' },
        detail: 'unknown field "reasoning"',
      },
    ]);
    expect(judgeGemini(spec(), { contents: [ask()], generationConfig: { thinkingBudget: 1 } })).toStrictEqual([
      {
        rule: 'strict-schema',
        rejection: 'unknown-name-at',
        params: { field: 'thinkingBudget', path: 'generation_config' },
        detail: 'unknown field "thinkingBudget" at generation_config',
      },
    ]);
  });

  it('answers a wrongly typed value with invalid-argument naming its path', () => {
    expect(judgeGemini(spec(), { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'invalid-argument',
        params: { path: 'contents[0].role' },
        detail: '/contents/0/role must be equal to one of the allowed values',
      },
    ]);
    expect(judgeGemini(spec(), { contents: 'hello' })[0]).toMatchObject({
      rejection: 'invalid-argument',
      params: { path: 'contents' },
      detail: '/contents must be array',
    });
  });

  it('writes a root-level schema error at "/"', () => {
    const strict = {
      ...spec(['invalid-argument']),
      request: { schema: { type: 'object', required: ['contents', 'model'] } },
    } as unknown as ProviderSpec;
    expect(judgeGemini(strict, { contents: [ask()] })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'invalid-argument',
        params: { path: '' },
        detail: "/ must have required property 'model'",
      },
    ]);
  });

  it('goes on to the signature rules when the spec words none of the schema errors', () => {
    const quiet = spec(['corrupted-thought-signature']);
    expect(
      judgeGemini(quiet, {
        contents: [ask(), step(call('ls', 'forged'))],
        reasoning: {},
        generationConfig: { maxOutputTokens: 'many' },
      }).map((f) => f.rejection),
    ).toStrictEqual(['corrupted-thought-signature']);
  });
});

describe('judgeGemini: signatures as issued', () => {
  it('names every part carrying a signature this endpoint never issued, by content and part', () => {
    const findings = judged([
      ask(),
      step({ text: 'thinking', thought: true }, call('ls', 'forged'), call('cat', 42)),
      results,
    ]);
    expect(findings).toStrictEqual([
      {
        rule: 'signatures-verbatim',
        rejection: 'corrupted-thought-signature',
        params: { index: 1, path: 'contents[1].parts[1]' },
        detail: 'part 1 of content 1 carries a thoughtSignature this endpoint never issued',
      },
      {
        rule: 'signatures-verbatim',
        rejection: 'corrupted-thought-signature',
        params: { index: 1, path: 'contents[1].parts[2]' },
        detail: 'part 2 of content 1 carries a thoughtSignature this endpoint never issued',
      },
    ]);
  });

  it("accepts its own signatures, Google's documented stand-ins, in either spelling, and refuses the other endpoint's", () => {
    expect(judged([ask(), step(call('ls', SIGNED), call('cat')), results])).toStrictEqual([]);
    expect(judged([ask(), step(call('ls', 'skip_thought_signature_validator')), results])).toStrictEqual([]);
    expect(judged([ask(), step(call('ls', 'context_engineering_is_the_way_to_go')), results])).toStrictEqual([]);
    expect(judged([ask(), step({ function_call: { name: 'ls' }, thought_signature: SIGNED }), results])).toStrictEqual(
      [],
    );
    expect(judged([ask(), step(call('ls', VERTEX_SIGNED)), results]).map((f) => f.rejection)).toStrictEqual([
      'corrupted-thought-signature',
    ]);
    expect(
      judged(
        [ask(), step(call('ls', VERTEX_SIGNED)), results],
        spec(ALL, 'https://us-central1-aiplatform.googleapis.com/v1'),
      ),
    ).toStrictEqual([]);
    expect(
      judged(
        [ask(), step(call('ls', SIGNED)), results],
        spec(ALL, 'https://us-central1-aiplatform.googleapis.com/v1'),
      ).map((f) => f.rejection),
    ).toStrictEqual(['corrupted-thought-signature']);
  });

  it('names the part where it sits in the request, whatever sits before it', () => {
    // A schema that lets any part through: a part that is no object still counts in the numbering.
    expect(judged([ask(), step('x', null, call('ls', 'forged'))]).map((f) => f.params.path)).toStrictEqual([
      'contents[1].parts[2]',
    ]);
  });

  it('judges no signature of a body the schema refused, and no content list that is not one', () => {
    expect(
      judgeGemini(spec(), { contents: [ask(), step(call('ls', 'forged'))], reasoning: {} }).map((f) => f.rejection),
    ).toStrictEqual(['unknown-name']);
    expect(
      judgeGemini(spec(['corrupted-thought-signature', 'missing-thought-signature']), {
        contents: { 0: step(call('ls', 'forged')) },
      }),
    ).toStrictEqual([]);
  });

  it('says nothing of a forged signature when the spec has no such rejection', () => {
    expect(judged([ask(), step(call('ls', 'forged')), results], spec(['missing-thought-signature']))).toStrictEqual([]);
  });
});

describe('judgeGemini: a signature on the first call of every current model step (Gemini 3)', () => {
  it('names the first call of each current step without a signature, numbered from 1 as Google numbers contents', () => {
    const findings = judged([
      ask(),
      step({ text: 'plan' }, call('ls'), call('cat')),
      results,
      step(call('grep', SIGNED)),
      results,
      step(call('wc')),
      results,
    ]);
    expect(findings).toStrictEqual([
      {
        rule: 'signatures-verbatim',
        rejection: 'missing-thought-signature',
        params: { field: 'ls', index: 1, position: 2 },
        detail: 'function call ls in content 1 (current turn) has no thought_signature',
      },
      {
        rule: 'signatures-verbatim',
        rejection: 'missing-thought-signature',
        params: { field: 'wc', index: 5, position: 6 },
        detail: 'function call wc in content 5 (current turn) has no thought_signature',
      },
    ]);
  });

  it('reads calls and signatures in snake_case too', () => {
    expect(judged([ask(), step({ function_call: { name: 'ls' } })])).toMatchObject([
      { rejection: 'missing-thought-signature', params: { field: 'ls', index: 1 } },
    ]);
    expect(judged([ask(), step({ function_call: { name: 'ls' }, thought_signature: 'forged' })])).toMatchObject([
      { rejection: 'corrupted-thought-signature', params: { path: 'contents[1].parts[0]' } },
    ]);
  });

  it('asks only the first call of a step: a later parallel call may go unsigned', () => {
    expect(judged([ask(), step(call('ls', SIGNED), call('cat')), results])).toStrictEqual([]);
  });

  it('starts the current turn after the last user content with text, whatever its role spelling', () => {
    // Function results come back as user contents without text: they do not start a new turn.
    expect(
      judged([ask(), step(call('ls')), results, step(call('cat')), results]).map((f) => f.params.index),
    ).toStrictEqual([1, 3]);
    // A content without a role is a user content (Google's default).
    expect(judged([ask(), step(call('ls')), results, { parts: [{ text: 'next question' }] }])).toStrictEqual([]);
    expect(
      judged([ask(), step(call('ls')), results, ask('next question'), step(call('cat'))]).map((f) => f.params.index),
    ).toStrictEqual([4]);
    // With no user text at all, every model step is current.
    expect(judged([results, step(call('ls'))]).map((f) => f.params.index)).toStrictEqual([1]);
  });

  it('takes a user content with text beside other parts as a new question, and a content without parts as nothing', () => {
    expect(
      judged([
        ask(),
        step(call('ls')),
        results,
        { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }, { text: 'and this?' }] },
      ]),
    ).toStrictEqual([]);
    expect(judged([ask(), { role: 'model' }, step(call('ls', SIGNED))])).toStrictEqual([]);
  });

  it('asks nothing of a user content holding a call, nor of a model step without one', () => {
    expect(judged([ask(), { role: 'user', parts: [call('ls')] }, step({ text: 'done' })])).toStrictEqual([]);
    expect(judged([ask(), step({ functionCall: 'ls' })])).toStrictEqual([]);
  });

  it('names a call without a string name with an empty field, and says nothing without the rejection', () => {
    expect(judged([ask(), step({ functionCall: { args: {} } })])[0]?.params).toStrictEqual({
      field: '',
      index: 1,
      position: 2,
    });
    expect(judged([ask(), step(call('ls'))], spec(['corrupted-thought-signature']))).toStrictEqual([]);
  });
});
