import fc from 'fast-check';
import type { History, Message, NativeCarrierRecord, ReasoningDetail, ToolCall } from './history.js';

/**
 * Composable generators of canonical histories for property tests. Names read as sentences:
 * `aConversation()` is a list of `aUserTurn()` and `aToolLoop()` segments whose assistant turns come
 * from `anAssistantTurnWithCarriers()`.
 */

export const someReasoningText = (): fc.Arbitrary<string> => fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim() !== '');

/** Base64-ish opaque data, like signatures and encrypted blobs on the wire. */
export const anOpaqueBlob = (): fc.Arbitrary<string> => fc.base64String({ minLength: 16, maxLength: 64 }).filter((s) => s.length >= 16);

export const aSignedTextItem = (): fc.Arbitrary<ReasoningDetail> =>
  fc.record({ type: fc.constant('reasoning.text' as const), text: someReasoningText(), signature: anOpaqueBlob(), format: fc.constant('anthropic-claude-v1') });

export const anEncryptedItem = (): fc.Arbitrary<ReasoningDetail> =>
  fc.record({ type: fc.constant('reasoning.encrypted' as const), data: anOpaqueBlob(), id: fc.constant('rs_1'), format: fc.constant('openai-responses-v1') });

export const aSummaryItem = (): fc.Arbitrary<ReasoningDetail> => fc.record({ type: fc.constant('reasoning.summary' as const), summary: someReasoningText() });

export const anAnthropicThinkingBlock = (): fc.Arbitrary<ReasoningDetail> =>
  fc.record({ type: fc.constant('thinking' as const), thinking: someReasoningText(), signature: anOpaqueBlob() });

export const aRedactedThinkingBlock = (): fc.Arbitrary<ReasoningDetail> => fc.record({ type: fc.constant('redacted_thinking' as const), data: anOpaqueBlob() });

export const someReasoningDetails = (): fc.Arbitrary<ReasoningDetail[]> =>
  fc.oneof(
    fc.array(fc.oneof(aSignedTextItem(), anEncryptedItem(), aSummaryItem()), { minLength: 1, maxLength: 3 }),
    fc.array(fc.oneof(anAnthropicThinkingBlock(), aRedactedThinkingBlock()), { minLength: 1, maxLength: 3 }),
  );

export const aNativeRecordFor = (route: string): fc.Arbitrary<NativeCarrierRecord> =>
  fc.record({ route: fc.constant(route), fields: fc.dictionary(fc.constantFrom('thoughtSignature', 'reasoning_opaque', 'reasoning_text', 'thought_signature'), anOpaqueBlob(), { minKeys: 1, maxKeys: 3 }) });

export const aNativeRecord = (): fc.Arbitrary<NativeCarrierRecord> => fc.constantFrom('gemini', 'copilot').chain(aNativeRecordFor);

let toolCallCounter = 0;
export const aToolCall = (): fc.Arbitrary<ToolCall> =>
  fc.record({ name: fc.constantFrom('get_weather', 'search', 'read_file'), arguments: fc.constantFrom('{}', '{"q":"x"}', '{"city":"Oslo"}') }).map((fn) => ({
    id: `call_${++toolCallCounter}`,
    type: 'function' as const,
    function: fn,
  }));

/** An assistant turn holding any subset of carriers at once (none included), with or without tool calls. */
export const anAssistantTurnWithCarriers = (options: { toolCalls?: boolean } = {}): fc.Arbitrary<Message> =>
  fc
    .record(
      {
        content: fc.option(fc.string({ maxLength: 30 }), { nil: null }),
        reasoning_content: fc.oneof(someReasoningText(), fc.constantFrom('', ' ')),
        reasoning: someReasoningText(),
        reasoning_details: someReasoningDetails(),
        native: aNativeRecord(),
        tool_calls: fc.array(aToolCall(), { minLength: 1, maxLength: 2 }),
      },
      { requiredKeys: ['content'] },
    )
    .map((turn) => {
      const message: Message = { role: 'assistant', ...turn };
      if (options.toolCalls === false) delete message.tool_calls;
      return message;
    })
    .filter((m) => options.toolCalls !== true || (m.tool_calls?.length ?? 0) > 0);

export const aUserTurn = (): fc.Arbitrary<Message> => fc.string({ minLength: 1, maxLength: 40 }).map((content) => ({ role: 'user' as const, content }));

/** An assistant tool-call turn followed by one tool result per call. */
export const aToolLoop = (): fc.Arbitrary<Message[]> =>
  anAssistantTurnWithCarriers({ toolCalls: true }).map((assistant) => [
    assistant,
    ...(assistant.tool_calls ?? []).map((tc): Message => ({ role: 'tool', tool_call_id: tc.id, content: `result of ${tc.function.name}` })),
  ]);

/** A user turn, then any mix of tool loops, answers and further user turns. */
export const aConversation = (options: { maxSegments?: number } = {}): fc.Arbitrary<History> =>
  fc
    .tuple(
      aUserTurn(),
      fc.array(fc.oneof(aToolLoop(), anAssistantTurnWithCarriers({ toolCalls: false }).map((m) => [m]), aUserTurn().map((m) => [m])), {
        maxLength: options.maxSegments ?? 6,
      }),
    )
    .map(([first, segments]) => ({ messages: [first, ...segments.flat()] }));

/** Freezes a value deeply, so a family that edits what it reads throws instead of passing silently. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
