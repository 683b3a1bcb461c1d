import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { chunkText } from '../../answers/chunk-text.js';
import { scriptedToolInput } from '../../answers/scripted-tool-input.js';

/**
 * A scripted answer as a Converse body and its ConverseStream events (modelled as SSE: see the
 * wire note in stream-carriers.ts). Claude's reasoning is signed with the mock signer and can be
 * redacted; other models' reasoning is unsigned text, as DeepSeek R1 and gpt-oss answer.
 */
export const renderBedrockConverseAnswer: AnswerRenderer = (answer, { spec, call, scenario }) => {
  // Claude on Bedrock signs its thinking; DeepSeek R1 and gpt-oss answer unsigned text. The
  // provider side reads the model id itself rather than asking the engine's request builder.
  const claude = spec.target.model.toLowerCase().includes('claude');
  const content: Record<string, unknown>[] = [];
  if (answer.reasoning !== undefined) {
    if (claude && answer.redacted)
      content.push({
        reasoningContent: { redactedContent: mockRedactedData(`${scenario}/${call}/${answer.reasoning}`, 0) },
      });
    else if (claude)
      content.push({
        reasoningContent: {
          reasoningText: { text: answer.reasoning, signature: mockSignThinking(answer.reasoning, 0) },
        },
      });
    else if (answer.reasoning !== '') content.push({ reasoningContent: { reasoningText: { text: answer.reasoning } } });
  }
  if (answer.content) content.push({ text: answer.content });
  (answer.tool_calls ?? []).forEach((tc, j) => {
    content.push({
      toolUse: {
        toolUseId: tc.id,
        name: tc.function.name,
        input: scriptedToolInput(tc.function.arguments, `call ${call} tool_calls[${j}]`),
      },
    });
  });
  const stopReason = (answer.tool_calls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn';
  const usage = { inputTokens: 20 + call * 40, outputTokens: 30, totalTokens: 50 + call * 40 };
  const body = { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 0 } };

  const events: [string, Record<string, unknown>][] = [['messageStart', { role: 'assistant' }]];
  content.forEach((block, contentBlockIndex) => {
    const delta = (d: Record<string, unknown>) => events.push(['contentBlockDelta', { contentBlockIndex, delta: d }]);
    const reasoning = block.reasoningContent as
      { reasoningText?: { text: string; signature?: string }; redactedContent?: string } | undefined;
    if (reasoning?.reasoningText) {
      for (const piece of chunkText(reasoning.reasoningText.text)) delta({ reasoningContent: { text: piece } });
      if (reasoning.reasoningText.signature)
        delta({ reasoningContent: { signature: reasoning.reasoningText.signature } });
    } else if (reasoning?.redactedContent !== undefined) {
      delta({ reasoningContent: { redactedContent: reasoning.redactedContent } });
    } else if (typeof block.text === 'string') {
      for (const piece of chunkText(block.text)) delta({ text: piece });
    } else {
      const tool = block.toolUse as { toolUseId: string; name: string; input: unknown };
      events.push([
        'contentBlockStart',
        { contentBlockIndex, start: { toolUse: { toolUseId: tool.toolUseId, name: tool.name } } },
      ]);
      for (const piece of chunkText(JSON.stringify(tool.input), 2)) delta({ toolUse: { input: piece } });
    }
    events.push(['contentBlockStop', { contentBlockIndex }]);
  });
  events.push(['messageStop', { stopReason }]);
  events.push(['metadata', { usage, metrics: { latencyMs: 0 } }]);
  const stream: SseEvent[] = events.map(([event, payload], i) => ({
    event,
    data: JSON.stringify(payload),
    atMs: i * 15,
  }));
  return { body, stream };
};
