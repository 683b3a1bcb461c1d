import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../history/load-history.js';
import { HISTORY_FORMATS } from './history-formats.js';
import type { HistoryFormatId } from './history-format.js';

/**
 * format -> canonical -> format is the identity on each format's normal form, and the canonical
 * history in between passes the history schema (so every carrier it kept is one the engine reads).
 */
const aSignature = fc.base64String({ minLength: 4, maxLength: 24 });
const someText = fc.lorem({ maxCount: 6 });
const anId = (prefix: string) => fc.stringMatching(new RegExp(`^${prefix}[a-z0-9]{6}$`));
const aToolName = fc.constantFrom('get_weather', 'read_file', 'search');
const someArgs = fc.dictionary(
  fc.constantFrom('city', 'path', 'q', 'n'),
  fc.oneof(someText, fc.integer(), fc.boolean()),
  { maxKeys: 3 },
);
const textParts = fc.array(
  someText.map((text) => ({ type: 'text' as const, text })),
  { minLength: 1, maxLength: 3 },
);

// ---- openai-chat ----------------------------------------------------------------------------
const anOpenRouterDetail = fc.oneof(
  fc.record({
    type: fc.constant('reasoning.text'),
    text: someText,
    signature: aSignature,
    format: fc.constant('anthropic-claude-v1'),
    index: fc.nat(3),
  }),
  fc.record({
    type: fc.constant('reasoning.encrypted'),
    data: aSignature,
    format: fc.constant('openai-responses-v1'),
    id: anId('rs_'),
  }),
);
const google = (sig: string) => ({ google: { thought_signature: sig } });

const anOpenAIChatAssistantTurn = fc
  .record({
    content: fc.oneof(someText, fc.constant(null)),
    calls: fc.array(fc.record({ id: anId('call_'), name: aToolName, args: someArgs }), { maxLength: 2 }),
    carriers: fc.record(
      {
        reasoning_content: someText,
        reasoning: someText,
        reasoning_details: fc.array(anOpenRouterDetail, { minLength: 1, maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    native: fc.oneof(
      fc.constant('none' as const),
      fc.record({
        kind: fc.constant('gemini' as const),
        text: fc.option(aSignature, { nil: undefined }),
        calls: fc.array(fc.option(aSignature, { nil: undefined }), { minLength: 2, maxLength: 2 }),
      }),
      fc.record({
        kind: fc.constant('copilot' as const),
        opaque: aSignature,
        text: fc.option(someText, { nil: undefined }),
        signed: fc.boolean(),
        sig: aSignature,
      }),
    ),
    results: fc.array(someText, { minLength: 2, maxLength: 2 }),
  })
  .map(({ content, calls, carriers, native, results }) => {
    const uniqueCalls = calls.map((c, i) => ({ ...c, id: `${c.id}${i}` }));
    const assistant: Record<string, unknown> = { role: 'assistant', content, ...carriers };
    const toolCalls: Record<string, unknown>[] = uniqueCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    if (native !== 'none' && native.kind === 'gemini') {
      if (native.text !== undefined) assistant.extra_content = google(native.text);
      toolCalls.forEach((call, i) => native.calls[i] !== undefined && (call.extra_content = google(native.calls[i]!)));
    } else if (native !== 'none') {
      assistant.reasoning_opaque = native.opaque;
      if (native.text !== undefined) assistant.reasoning_text = native.text;
      if (native.signed && toolCalls[0])
        (toolCalls[0].function as Record<string, unknown>).thought_signature = native.sig;
    }
    if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
    return [assistant, ...uniqueCalls.map((c, i) => ({ role: 'tool', tool_call_id: c.id, content: results[i]! }))];
  });

const anOpenAIChatHistory = fc
  .tuple(
    fc.option(someText, { nil: undefined }),
    fc.array(fc.tuple(fc.oneof(someText, textParts), anOpenAIChatAssistantTurn), { minLength: 1, maxLength: 4 }),
  )
  .map(([system, turns]) => ({
    messages: [
      ...(system !== undefined ? [{ role: 'system', content: system }] : []),
      ...turns.flatMap(([user, rest]) => [{ role: 'user', content: user }, ...rest]),
    ],
  }));

// ---- anthropic-messages -----------------------------------------------------------------------
const aThinkingBlock = fc.oneof(
  fc.record({ type: fc.constant('thinking'), thinking: someText, signature: aSignature }),
  fc.record({ type: fc.constant('redacted_thinking'), data: aSignature }),
);
const textBlocks = textParts;
const anAnthropicAssistantTurn = fc.oneof(
  someText.map((text) => ({ turn: { role: 'assistant', content: text }, ids: [] as string[] })),
  fc
    .tuple(
      fc.array(aThinkingBlock, { maxLength: 2 }),
      fc.array(
        someText.map((text) => ({ type: 'text', text })),
        { maxLength: 2 },
      ),
      fc.array(fc.record({ id: anId('toolu_'), name: aToolName, input: someArgs }), { maxLength: 2 }),
    )
    .map(([thinking, text, uses]) => {
      const calls = uses.map((u, i) => ({ type: 'tool_use', ...u, id: `${u.id}${i}` }));
      return { turn: { role: 'assistant', content: [...thinking, ...text, ...calls] }, ids: calls.map((c) => c.id) };
    }),
);
const aToolResultContent = fc.option(fc.oneof(someText, textBlocks), { nil: undefined });

const anAnthropicHistory = fc
  .tuple(
    fc.option(fc.oneof(someText, textBlocks), { nil: undefined }),
    fc.oneof(someText, textBlocks),
    fc.array(
      fc.tuple(
        anAnthropicAssistantTurn,
        fc.array(aToolResultContent, { minLength: 2, maxLength: 2 }),
        fc.array(
          someText.map((text) => ({ type: 'text', text })),
          { maxLength: 2 },
        ),
        fc.oneof(someText, textBlocks),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([system, first, turns]) => {
    const messages: unknown[] = [{ role: 'user', content: first }];
    for (const [{ turn, ids }, results, followText, nextUser] of turns) {
      messages.push(turn);
      if (ids.length > 0)
        messages.push({
          role: 'user',
          content: [
            ...ids.map((id, i) => ({
              type: 'tool_result',
              tool_use_id: id,
              ...(results[i] !== undefined ? { content: results[i] } : {}),
            })),
            ...followText,
          ],
        });
      else messages.push({ role: 'user', content: nextUser });
    }
    return { ...(system !== undefined ? { system } : {}), messages };
  });

// ---- gemini-contents ------------------------------------------------------------------------
const aSigned = <T extends object>(part: fc.Arbitrary<T>) =>
  fc
    .tuple(part, fc.option(aSignature, { nil: undefined }))
    .map(([p, sig]) => (sig === undefined ? p : { ...p, thoughtSignature: sig }));
const aModelPart = fc.oneof(
  aSigned(someText.map((text) => ({ text }))),
  aSigned(someText.map((text) => ({ text, thought: true }))),
  aSigned(
    fc
      .record(
        { name: aToolName, args: someArgs, id: fc.option(anId('fc-'), { nil: undefined }) },
        { requiredKeys: ['name', 'args'] },
      )
      .map((functionCall) => ({ functionCall })),
  ),
  fc.record({ executableCode: fc.record({ language: fc.constant('PYTHON'), code: someText }) }),
  aSignature.map((thoughtSignature) => ({ thoughtSignature })),
);
const aGeminiHistory = fc
  .tuple(
    fc.option(
      fc.array(
        someText.map((text) => ({ text })),
        { minLength: 1, maxLength: 2 },
      ),
      { nil: undefined },
    ),
    fc.array(
      fc.tuple(
        fc.array(
          someText.map((text) => ({ text })),
          { minLength: 1, maxLength: 2 },
        ),
        fc.array(aModelPart, { maxLength: 5 }),
        fc.array(someText, { maxLength: 1 }),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([system, turns]) => {
    const contents: unknown[] = [];
    let n = 0;
    for (const [user, model, follow] of turns) {
      const last = contents.at(-1) as { role: string; parts: unknown[] } | undefined;
      if (last?.role === 'user') last.parts.push(...user);
      else contents.push({ role: 'user', parts: user });
      const parts = model.map((p) =>
        'functionCall' in p && p.functionCall.id !== undefined
          ? { ...p, functionCall: { ...p.functionCall, id: `${p.functionCall.id}${n++}` } }
          : p,
      );
      contents.push({ role: 'model', parts });
      const calls = parts.flatMap((p) => ('functionCall' in p ? [p.functionCall] : []));
      if (calls.length > 0)
        contents.push({
          role: 'user',
          parts: [
            ...calls.map((c) => ({
              functionResponse: {
                name: c.name,
                response: { result: follow[0] ?? 'ok' },
                ...(c.id !== undefined ? { id: c.id } : {}),
              },
            })),
          ],
        });
    }
    return { ...(system ? { systemInstruction: { parts: system } } : {}), contents };
  });

const cases: [HistoryFormatId, fc.Arbitrary<unknown>][] = [
  ['openai-chat', anOpenAIChatHistory],
  ['anthropic-messages', anAnthropicHistory],
  ['gemini-contents', aGeminiHistory],
];

describe('history formats round-trip through the canonical history', () => {
  for (const [id, arbitrary] of cases) {
    it(`${id}: format -> canonical -> format gives back the input, and the canonical history is valid`, () => {
      const format = HISTORY_FORMATS[id];
      fc.assert(
        fc.property(arbitrary, (input) => {
          const { history } = format.toCanonical(structuredClone(input));
          checkHistory(structuredClone(history), 'round-trip');
          expect(format.fromCanonical(history)).toEqual(input);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('canonical: reads and writes the history as it is', () => {
    const history = { messages: [{ role: 'user', content: 'hi' }] };
    expect(HISTORY_FORMATS.canonical.fromCanonical(HISTORY_FORMATS.canonical.toCanonical(history).history)).toEqual(
      history,
    );
  });
});
