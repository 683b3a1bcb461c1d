import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ForbidRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { conditionHolds, judgeForbiddenFields } from './forbidden-fields.js';
import { loadProviderSpec } from '../../shared/provider-specs/load-provider-specs.js';
import { specsDir } from '../../shared/project-root.js';

/**
 * The comparisons of a body condition (specs/schema definitions/bodyCondition) that per-model
 * constraints are written in: a Claude budget below 1024, a temperature not in [1], an effort not
 * among a model's values, a budget not below max_tokens. Generated values check each test against
 * its plain reading.
 */

const number = fc.double({ noNaN: true, noDefaultInfinity: true });
const notNumber = fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.integer()), fc.object());
const json = fc.jsonValue();

describe('conditionHolds: numbers', () => {
  it('below and atLeast split every number at the bound', () => {
    fc.assert(
      fc.property(number, number, (value, bound) => {
        const body = { v: value };
        expect(conditionHolds(body, { pointer: '/v', below: bound })).toBe(value < bound);
        expect(conditionHolds(body, { pointer: '/v', atLeast: bound })).toBe(value >= bound);
      }),
    );
  });

  it('atLeastPointer compares with the number at the other pointer (a budget not below max_tokens)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (budget, max) => {
        const body = { thinking: { budget_tokens: budget }, max_tokens: max };
        expect(conditionHolds(body, { pointer: '/thinking/budget_tokens', atLeastPointer: '/max_tokens' })).toBe(
          budget >= max,
        );
      }),
    );
  });

  it('a numeric test never holds of a value that is not a number, nor against one', () => {
    fc.assert(
      fc.property(notNumber, number, (value, n) => {
        const body = { v: value, n };
        expect(conditionHolds(body, { pointer: '/v', below: n })).toBe(false);
        expect(conditionHolds(body, { pointer: '/v', atLeast: n })).toBe(false);
        expect(conditionHolds(body, { pointer: '/v', atLeastPointer: '/n' })).toBe(false);
        expect(conditionHolds(body, { pointer: '/n', atLeastPointer: '/v' })).toBe(false);
        expect(conditionHolds({}, { pointer: '/v', atLeast: n })).toBe(false);
      }),
    );
  });
});

describe('conditionHolds: lists and patterns', () => {
  it('in and notIn are complements for a value present, and both fail for an absent one', () => {
    fc.assert(
      fc.property(json, fc.array(json, { minLength: 1, maxLength: 5 }), (value, list) => {
        const body = { v: value };
        const among = conditionHolds(body, { pointer: '/v', in: list });
        expect(among).toBe(list.some((x) => JSON.stringify(x) === JSON.stringify(value)));
        expect(conditionHolds(body, { pointer: '/v', notIn: list })).toBe(!among);
        expect(conditionHolds({}, { pointer: '/v', in: list })).toBe(false);
        expect(conditionHolds({}, { pointer: '/v', notIn: list })).toBe(false);
      }),
    );
  });

  it('in compares JSON values: 1 is not "1", and null is a value of its own', () => {
    expect(conditionHolds({ t: 1 }, { pointer: '/t', notIn: [1] })).toBe(false);
    expect(conditionHolds({ t: '1' }, { pointer: '/t', notIn: [1] })).toBe(true);
    expect(conditionHolds({ e: null }, { pointer: '/e', notIn: ['none', 'default', null] })).toBe(false);
    expect(conditionHolds({ c: { type: 'any' } }, { pointer: '/c', in: [{ type: 'any' }] })).toBe(true);
  });

  it('matches tests a string against a regular expression, and nothing else', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(conditionHolds({ m: text }, { pointer: '/m', matches: '^gpt-5' })).toBe(text.startsWith('gpt-5'));
      }),
    );
    expect(conditionHolds({ m: 5 }, { pointer: '/m', matches: '5' })).toBe(false);
  });

  it('every test of one condition must hold (a budget below 128 that is neither 0 nor -1)', () => {
    const c = { pointer: '/b', below: 128, notIn: [0, -1] };
    expect([-2, -1, 0, 1, 127, 128].map((b) => conditionHolds({ b }, c))).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it('keeps the older readings: exists, equals, and a bare pointer meaning absent', () => {
    expect(conditionHolds({ a: 0 }, { pointer: '/a', exists: true })).toBe(true);
    expect(conditionHolds({ a: 0 }, { pointer: '/a', equals: 0 })).toBe(true);
    expect(conditionHolds({ a: 0 }, { pointer: '/a' })).toBe(false);
    expect(conditionHolds({}, { pointer: '/a' })).toBe(true);
  });
});

const spec = (forbid: ForbidRule[]): ProviderSpec =>
  ({
    id: 'p',
    forbid,
    rejections: { refused: { status: 400, body: {}, wording: 'verbatim', sources: ['https://example.com/a'] } },
  }) as unknown as ProviderSpec;

describe('per-model constraints', () => {
  const temperature: ForbidRule = {
    path: 'temperature',
    models: '^kimi-k(2\\.[5-9]|3)',
    whenBody: [{ pointer: '/temperature', notIn: [1] }],
    rejection: 'refused',
  };

  it('a forbid naming models applies to the models it matches, once specForModel resolved it', () => {
    const body = { temperature: 0.7 };
    expect(judgeForbiddenFields(specForModel(spec([temperature]), 'kimi-k3'), body)).toHaveLength(1);
    expect(judgeForbiddenFields(specForModel(spec([temperature]), 'kimi-k2'), body)).toEqual([]);
    expect(judgeForbiddenFields(specForModel(spec([temperature]), 'kimi-k3'), { temperature: 1 })).toEqual([]);
  });

  it('an unresolved forbid naming models is skipped: its model is unknown', () => {
    expect(judgeForbiddenFields(spec([temperature]), { temperature: 0.7 })).toEqual([]);
  });

  it('names the offending value, a string as it is and anything else as JSON', () => {
    const rules = spec([
      { path: 'reasoning.effort', rejection: 'refused' },
      { path: 'generationConfig.thinkingConfig.thinkingBudget', rejection: 'refused' },
    ]);
    const found = judgeForbiddenFields(rules, {
      reasoning: { effort: 'minimal' },
      generationConfig: { thinkingConfig: { thinkingBudget: 52428 } },
    });
    expect(found.map((f) => f.params.value)).toEqual(['minimal', '52428']);
  });
});

/**
 * Issue 40: MiMo answers "Param Incorrect" with the reason in `param` for an assistant message whose content is null
 * beside tool_calls (mimo-v2-flash, MiMo V2 Omni) and for a tool result sent as a list of parts (mimo-v2.5).
 */
describe('MiMo content rules (spec forbid, by model)', () => {
  const mimo = loadProviderSpec(`${specsDir()}/providers/mimo.json`);
  const call = { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } };
  const history = (assistantContent: unknown, toolContent: unknown) => [
    { role: 'user', content: 'list' },
    { role: 'assistant', content: assistantContent, reasoning_content: 'r', tool_calls: [call] },
    { role: 'tool', tool_call_id: 'call_1', content: toolContent },
  ];
  const refusals = (model: string, assistantContent: unknown, toolContent: unknown = 'a.txt') =>
    judgeForbiddenFields(specForModel(mimo, model), { model, messages: history(assistantContent, toolContent) }).map(
      (f) => f.rejection,
    );

  it('refuses content null beside tool_calls on the models the reports name, not text or ""', () => {
    for (const model of ['mimo-v2-flash', 'mimo-v2-omni', 'xiaomi/mimo-v2-flash:free'])
      expect(refusals(model, null), model).toEqual(['text-not-present']);
    expect(refusals('mimo-v2-flash', '')).toEqual([]);
    expect(refusals('mimo-v2-flash', 'Listing.')).toEqual([]);
  });

  it('does not judge content null on the V2.5 series, for which no source shows the answer', () => {
    expect(refusals('mimo-v2.5-pro', null)).toEqual([]);
  });

  it('refuses a tool result sent as a list of parts, on every model; a string is taken', () => {
    const parts = [{ type: 'text', text: 'Screenshot captured' }];
    expect(refusals('mimo-v2.5', 'x', parts)).toEqual(['tool-content-not-a-string']);
    expect(refusals('mimo-v2-flash', 'x', parts)).toEqual(['tool-content-not-a-string']);
    expect(refusals('mimo-v2.5', 'x', 'Screenshot captured')).toEqual([]);
  });
});
