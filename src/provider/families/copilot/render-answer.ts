import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import { mockOpaque } from '../../signing/mock-opaque.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { chunkText } from '../../answers/chunk-text.js';

/**
 * A scripted answer as Copilot's chat completions writes it: `reasoning_text` beside the content,
 * `reasoning_opaque` as the blob to send back, and for Gemini models a `thought_signature` on the
 * first tool call. The stream sends a fresh opaque before each tool call (Claude on Copilot,
 * per the seed); only the last is in the unstreamed body, and only the last is valid to replay.
 */
export const renderCopilotAnswer: AnswerRenderer = (answer, { spec, call, scenario, model: asked }) => {
  const id = `chatcmpl-${scenario}-${call}`;
  const created = 1_767_225_600 + call;
  const model = asked ?? spec.target.model;
  const calls = answer.tool_calls ?? [];
  const text = answer.reasoning !== undefined && !answer.redacted ? answer.reasoning : undefined;
  const thinks = answer.reasoning !== undefined || calls.length > 0;
  // Every opaque but the last is superseded within the answer: the mock issues those under another
  // kind, so replaying an earlier one (an accumulator that kept the first) is refused.
  const count = thinks ? Math.max(1, calls.length) : 0;
  const opaques = Array.from({ length: count }, (_, i) =>
    mockOpaque('copilot', i === count - 1 ? 'opaque' : 'opaque-superseded', `${scenario}/${call}/${i}`),
  );
  const signature =
    /gemini/i.test(model) && calls.length > 0
      ? mockOpaque('copilot', 'thought-signature', `${scenario}/${call}`)
      : undefined;
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';

  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.content ? answer.content : null,
    refusal: null,
  };
  if (text !== undefined) message.reasoning_text = text;
  if (opaques.length > 0) message.reasoning_opaque = opaques.at(-1);
  if (calls.length > 0) {
    message.tool_calls = calls.map((c, i) =>
      i === 0 && signature ? { ...c, function: { ...c.function, thought_signature: signature } } : c,
    );
  }
  const usage = { prompt_tokens: 20 + call * 40, completion_tokens: 30, total_tokens: 50 + call * 40 };
  const body = {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage,
  };

  const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: '' }];
  for (const piece of chunkText(text ?? '')) deltas.push({ reasoning_text: piece });
  if (calls.length === 0 && opaques.length > 0) deltas.push({ reasoning_opaque: opaques[0] });
  for (const piece of chunkText(answer.content ?? '')) deltas.push({ content: piece });
  calls.forEach((c, index) => {
    deltas.push({ reasoning_opaque: opaques[index] });
    const fn: Record<string, unknown> = { name: c.function.name, arguments: '' };
    if (index === 0 && signature) fn.thought_signature = signature;
    deltas.push({ tool_calls: [{ index, id: c.id, type: 'function', function: fn }] });
    for (const piece of chunkText(c.function.arguments, 2))
      deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const stream: SseEvent[] = deltas.map((d, i) => ({ data: JSON.stringify(chunk(d)), atMs: i * 15 }));
  stream.push({ data: JSON.stringify({ ...chunk({}, finish), usage }), atMs: deltas.length * 15 });
  stream.push({ data: '[DONE]', atMs: deltas.length * 15 + 5 });
  return { body, stream };
};
