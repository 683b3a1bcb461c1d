import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { createHash } from 'node:crypto';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import { chunkText } from '../../answers/chunk-text.js';

/** One OpenRouter `reasoning_details` item as the wire carries it (the provider side's own reading). */
type ReasoningDetail =
  | { type: 'reasoning.text'; text: string; signature?: string; id?: string; format?: string; index?: number }
  | { type: 'reasoning.encrypted'; data: string; id?: string; format?: string; index?: number };

/** A stable opaque blob for a redacted answer: synthesized, so derived from the text, never random. */
function opaqueFor(text: string): string {
  return 'gAAAA' + createHash('sha256').update(text).digest('base64url');
}

/**
 * Items in Claude's format carry what Claude issued: a signature over the thinking text, or a
 * redacted blob, from the same mock signer the Anthropic-family judges check. So a turn taken
 * from an aggregator can be proven to cross to Claude intact.
 */
function detailFor(reasoning: string, redacted: boolean | undefined, call: number, format: string): ReasoningDetail {
  const common = { id: `rd-${call}`, format, index: 0 };
  if (format === 'anthropic-claude-v1') {
    return redacted
      ? { type: 'reasoning.encrypted', data: mockRedactedData(reasoning, 0), ...common }
      : { type: 'reasoning.text', text: reasoning, signature: mockSignThinking(reasoning, 0), ...common };
  }
  return redacted
    ? { type: 'reasoning.encrypted', data: opaqueFor(reasoning), ...common }
    : { type: 'reasoning.text', text: reasoning, ...common };
}

/**
 * A scripted answer as a chat-completions body and its stream, with reasoning in exactly the
 * carriers the provider spec says this provider answers with.
 */
export const renderOpenAIChatAnswer: AnswerRenderer = (answer, { spec, call, scenario }) => {
  const id = `chatcmpl-${scenario}-${call}`;
  const created = 1_767_225_600 + call;
  const model = spec.target.model;
  const reasoning = answer.reasoning;
  const carriers: Record<string, unknown> = {};
  if (reasoning !== undefined) {
    for (const field of spec.response.carriers) {
      if (field === 'reasoning_content' || field === 'reasoning') carriers[field] = answer.redacted ? '' : reasoning;
      if (field === 'reasoning_details')
        carriers[field] = [detailFor(reasoning, answer.redacted, call, spec.response.detailFormat ?? 'unknown')];
    }
  }
  const toolCalls = answer.tool_calls ?? [];
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  // No text is null, as a stream that sends none gives null: the two shapes must read the same.
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.content ? answer.content : null,
    ...carriers,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const body = {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 20 + call * 40, completion_tokens: 30, total_tokens: 50 + call * 40 },
  };

  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: '' }];
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const text = carriers[field];
    if (typeof text !== 'string') continue;
    const pieces = chunkText(text);
    // An empty carrier (a redacted answer) is still sent once, so the stream says it was there.
    for (const piece of pieces.length > 0 ? pieces : ['']) deltas.push({ [field]: piece });
  }
  const details = carriers.reasoning_details as ReasoningDetail[] | undefined;
  for (const detail of details ?? []) {
    if (detail.type === 'reasoning.text') {
      // OpenRouter streams the text first and the signature alone in a final text-less delta
      // (OpenRouterTeam/ai-sdk-provider#423): an accumulator that drops it breaks Claude replay.
      const { signature, ...unsigned } = detail;
      const pieces = chunkText(detail.text);
      for (const piece of pieces.length > 0 ? pieces : [''])
        deltas.push({ reasoning_details: [{ ...unsigned, text: piece }] });
      if (signature)
        deltas.push({
          reasoning_details: [{ type: 'reasoning.text', signature, format: detail.format, index: detail.index }],
        });
    } else {
      deltas.push({ reasoning_details: [detail] });
    }
  }
  for (const piece of chunkText(answer.content ?? '')) deltas.push({ content: piece });
  toolCalls.forEach((tc, index) => {
    deltas.push({
      tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.function.name, arguments: '' } }],
    });
    for (const piece of chunkText(tc.function.arguments, 2))
      deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  const events: SseEvent[] = deltas.map((d, i) => ({ data: JSON.stringify(chunk(d)), atMs: i * 15 }));
  events.push({ data: JSON.stringify({ ...chunk({}, finish), usage: body.usage }), atMs: deltas.length * 15 });
  events.push({ data: '[DONE]', atMs: deltas.length * 15 + 5 });
  return { body, stream: events };
};
