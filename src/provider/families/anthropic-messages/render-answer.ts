import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { chunkText } from '../../answers/chunk-text.js';
import { scriptedToolInput } from '../../answers/scripted-tool-input.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { atPointer } from '../../rules/message-echo-judge.js';
import { mockCompactionContent } from '../../signing/mock-compaction.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { bindIssuedSignature, inputTransformations } from './thinking-binding.js';

/**
 * What a request asks of server compaction (compact_20260112 in context_management.edits): whether it asks at all,
 * and whether the answer is to stop after the compaction block (pause_after_compaction, stop_reason "compaction").
 * Without a request (a synthesized fixture) the scenario's script stands for a request that asked.
 */
export function compactionAsked(request?: Readonly<Record<string, unknown>>): { asked: boolean; pause: boolean } {
  if (request === undefined) return { asked: true, pause: false };
  const edits = isPlainObject(request.context_management) ? request.context_management.edits : undefined;
  const edit = Array.isArray(edits) ? edits.find((e) => isPlainObject(e) && e.type === 'compact_20260112') : undefined;
  return { asked: edit !== undefined, pause: isPlainObject(edit) && edit.pause_after_compaction === true };
}

type Block = Record<string, unknown> & { type: string };

/**
 * Whether this answer's thinking comes back as display "omitted": empty text and only the signature. The request says
 * so at the spec's pointer ("summarized" keeps the text); without it the model's server default decides (Opus 4.7+
 * omit by default, docker/docker-agent#3415). Specs without `response.thinkingDisplay` always show the text.
 */
export function thinkingOmitted(
  spec: ProviderSpec,
  model: string,
  request?: Readonly<Record<string, unknown>>,
): boolean {
  const display = spec.response.thinkingDisplay;
  if (!display) return false;
  const asked = request === undefined ? undefined : atPointer(request, display.pointer);
  if (typeof asked === 'string') return asked === 'omitted';
  return display.omittedByDefault !== undefined && new RegExp(display.omittedByDefault).test(model);
}

/**
 * A scripted answer as a Messages API body and its SSE stream. Thinking is signed with the mock
 * signer (so the mocks accept it back only byte-identical and in place); `redacted: true` gives a
 * redacted_thinking block whose opaque data is derived from the scripted text.
 */
export const renderAnthropicMessagesAnswer: AnswerRenderer = (answer, { spec, call, scenario, model, request }) => {
  const id = `msg_${scenario.replace(/[^a-z0-9]/gi, '')}_${call}`;
  const blocks: Block[] = [];
  // Server compaction opens the answer: the summary, and opaque metadata the API wants back verbatim.
  const compaction = compactionAsked(request);
  const compacts = answer.compaction !== undefined && compaction.asked;
  if (compacts)
    blocks.push({
      type: 'compaction',
      content: answer.compaction,
      encrypted_content: mockCompactionContent(spec.id, `${scenario}/${call}`),
    });
  const paused = compacts && compaction.pause;
  if (answer.reasoning !== undefined && !paused) {
    // Omitted display: the text stays server-side and the signature the client gets covers what it sees, "".
    const shown = thinkingOmitted(spec, model ?? spec.target.model, request) ? '' : answer.reasoning;
    blocks.push(
      answer.redacted
        ? { type: 'redacted_thinking', data: mockRedactedData(`${scenario}/${call}/${answer.reasoning}`, 0) }
        : {
            type: 'thinking',
            thinking: shown,
            // Fable 5.1+ bind the signature to the conversation before it and to the model (thinking-binding.ts).
            signature: bindIssuedSignature(spec, model ?? spec.target.model, request, mockSignThinking(shown, 0)),
          },
    );
  }
  if (answer.content && !paused) blocks.push({ type: 'text', text: answer.content });
  (paused ? [] : (answer.tool_calls ?? [])).forEach((tc, j) => {
    blocks.push({
      type: 'tool_use',
      id: tc.id,
      name: tc.function.name,
      input: scriptedToolInput(tc.function.arguments, `call ${call} tool_calls[${j}]`),
    });
  });
  const stopReason = paused ? 'compaction' : (answer.tool_calls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn';
  // Every member a recorded answer's usage has (vercel/ai packages/anthropic/src/__fixtures__/
  // anthropic-clear-thinking.1.json, 2025-12): no prompt caching asked for, so the cache counts are 0.
  const usage = {
    input_tokens: 20 + call * 40,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: 30,
    service_tier: 'standard',
    inference_geo: 'not_available',
  };
  const transformations = inputTransformations(spec, model ?? spec.target.model, request);
  const body = {
    id,
    type: 'message',
    role: 'assistant',
    // The model the client asked for, as the API echoes it (claude-opus-5 is answered as claude-opus-5).
    model: model ?? spec.target.model,
    content: blocks,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
    // The blocks a binding check dropped (or let through) in the request, under the binding-controls beta.
    ...(transformations ? { input_transformations: transformations } : {}),
  };

  const payloads: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: { ...body, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    },
    { type: 'ping' },
  ];
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'thinking':
        payloads.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const piece of chunkText(block.thinking as string))
          payloads.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
        // As Anthropic sends it: the signature alone, in a text-less delta just before the stop.
        payloads.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        });
        break;
      case 'redacted_thinking':
        payloads.push({ type: 'content_block_start', index, content_block: block });
        break;
      case 'compaction':
        // The block opens empty; its summary and opaque metadata come in a compaction_delta (SDK stream types).
        payloads.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'compaction', content: null, encrypted_content: null },
        });
        payloads.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'compaction_delta', content: block.content, encrypted_content: block.encrypted_content },
        });
        break;
      case 'text':
        payloads.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const piece of chunkText(block.text as string))
          payloads.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
        break;
      case 'tool_use': {
        payloads.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        for (const piece of chunkText(JSON.stringify(block.input), 2))
          payloads.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: piece },
          });
        break;
      }
    }
    payloads.push({ type: 'content_block_stop', index });
  });
  payloads.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    // The final usage as the API sends it in message_delta: input and cache counts again, then the output count.
    usage: {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      output_tokens: usage.output_tokens,
    },
  });
  payloads.push({ type: 'message_stop' });
  const stream: SseEvent[] = payloads.map((p, i) => ({
    event: p.type as string,
    data: JSON.stringify(p),
    atMs: i * 15,
  }));
  return { body, stream };
};
