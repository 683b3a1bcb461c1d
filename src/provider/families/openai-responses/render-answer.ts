import { createHash } from 'node:crypto';
import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import {
  mockEncryptedContent,
  mockPairedItemId,
  mockReasoningId,
  organizationOf,
} from '../../signing/openai-issued-items.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { chunkText } from '../../answers/chunk-text.js';
import { mockCompactionContent } from '../../signing/mock-compaction.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/**
 * Whether a request asks for server compaction: context_management with a compaction entry on /responses. Without a
 * request (a synthesized fixture) the scenario's script stands for a request that asked.
 */
export function responsesCompactionAsked(request?: Readonly<Record<string, unknown>>): boolean {
  if (request === undefined) return true;
  const entries = request.context_management;
  return Array.isArray(entries) && entries.some((e) => isPlainObject(e) && e.type === 'compaction');
}

/**
 * Ids as the mock issues them: `rs_<hex>` (whether its response was stored is part of it), and for the message and
 * calls a response produced after that reasoning, ids that carry it (signing/openai-issued-items.ts), so the mock can tell from an
 * fc_ or msg_ id which reasoning item it needs. Without reasoning the ids pair with nothing.
 */
export function responsesIds(
  scenario: string,
  call: number,
  reasons = true,
  stored = false,
): { reasoning: string; message: string; functionCall: (n: number) => string } {
  const hex = createHash('sha256').update(`${scenario}/${call}`).digest('hex').slice(0, 32);
  const reasoning = mockReasoningId(`${scenario}/${call}`, stored);
  if (!reasons) return { reasoning, message: `msg_${hex}`, functionCall: (n) => `fc_${hex}_${n}` };
  return {
    reasoning,
    message: mockPairedItemId('message', reasoning, 0),
    functionCall: (n) => mockPairedItemId('function_call', reasoning, n),
  };
}

/**
 * What the client asked the Responses API for: `store` (default true, OpenAI's API reference) and whether `include`
 * names reasoning.encrypted_content. A synthesized fixture answers a stateless client (store false, encrypted
 * reasoning included), the replay the scenarios script.
 */
function requested(request: Readonly<Record<string, unknown>> | undefined): { stored: boolean; encrypted: boolean } {
  if (!request) return { stored: false, encrypted: true };
  const include = Array.isArray(request.include) ? request.include : [];
  return { stored: request.store !== false, encrypted: include.includes('reasoning.encrypted_content') };
}

const orNull = (value: unknown): unknown => (value === undefined ? null : value);

/**
 * A function tool as the API echoes it: every member present, `strict` defaulting to true (the API reference's
 * default for Responses function tools); other tools are echoed as sent.
 */
function echoedTool(tool: unknown): unknown {
  if (typeof tool !== 'object' || tool === null || (tool as { type?: unknown }).type !== 'function') return tool;
  const t = tool as Record<string, unknown>;
  return {
    type: 'function',
    description: orNull(t.description),
    name: t.name,
    parameters: orNull(t.parameters),
    strict: t.strict ?? true,
  };
}

/**
 * The Response object with every member the API sends, in its order (a recorded answer:
 * vercel/ai packages/openai/src/responses/__fixtures__/openai-reasoning-encrypted-content.1.json), echoing what the
 * request set and the API's defaults where it set nothing: a strict client (one whose schema makes
 * `incomplete_details` nullable but not optional) reads it, and so do the definition's required members.
 */
function responseObject(a: {
  id: string;
  created_at: number;
  model: string;
  output: unknown[];
  usage: Record<string, unknown>;
  stored: boolean;
  reasons: boolean;
  request: Readonly<Record<string, unknown>>;
}): Record<string, unknown> {
  const r = a.request;
  const reasoning = (typeof r.reasoning === 'object' && r.reasoning !== null ? r.reasoning : {}) as Record<
    string,
    unknown
  >;
  const text = (typeof r.text === 'object' && r.text !== null ? r.text : {}) as Record<string, unknown>;
  return {
    id: a.id,
    object: 'response',
    created_at: a.created_at,
    status: 'completed',
    background: r.background ?? false,
    completed_at: a.created_at + 2,
    error: null,
    // Echoed like the other sampling settings: the Open Responses schema (specs/responses/open-responses.json)
    // requires both, and OpenAI's reference lists them on the response object (vllm-project/vllm#38613 follows it).
    frequency_penalty: r.frequency_penalty ?? 0,
    incomplete_details: null,
    instructions: orNull(r.instructions),
    max_output_tokens: orNull(r.max_output_tokens),
    max_tool_calls: orNull(r.max_tool_calls),
    model: a.model,
    output: a.output,
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: orNull(r.previous_response_id),
    presence_penalty: r.presence_penalty ?? 0,
    prompt_cache_key: orNull(r.prompt_cache_key),
    prompt_cache_retention: orNull(r.prompt_cache_retention),
    reasoning: { effort: reasoning.effort ?? (a.reasons ? 'medium' : null), summary: orNull(reasoning.summary) },
    safety_identifier: orNull(r.safety_identifier),
    service_tier: r.service_tier ?? 'default',
    store: a.stored,
    temperature: r.temperature ?? 1,
    text: { format: text.format ?? { type: 'text' }, verbosity: text.verbosity ?? 'medium' },
    tool_choice: r.tool_choice ?? 'auto',
    tools: Array.isArray(r.tools) ? r.tools.map(echoedTool) : [],
    top_logprobs: r.top_logprobs ?? 0,
    top_p: r.top_p ?? 1,
    truncation: r.truncation ?? 'disabled',
    usage: a.usage,
    user: orNull(r.user),
    metadata: r.metadata ?? {},
  };
}

/**
 * A scripted answer as the Responses API writes it: a reasoning item (summary, and encrypted_content only when
 * `include` asks for it), a message item, then function_call items; and the same answer as its SSE events, where the
 * encrypted_content is only complete in `response.output_item.done`. `store` is the client's.
 */
export const renderOpenAIResponsesAnswer: AnswerRenderer = (answer, { spec, call, scenario, model, request }) => {
  const calls = answer.tool_calls ?? [];
  const reasons = answer.reasoning !== undefined || calls.length > 0;
  const asked = requested(request);
  const ids = responsesIds(scenario, call, reasons, asked.stored);
  const summaryText =
    answer.reasoning !== undefined && !answer.redacted && answer.reasoning !== '' ? answer.reasoning : undefined;
  const output: Record<string, unknown>[] = [];
  // Server compaction: the encrypted compaction item comes before the model's reply (OpenRouter's and OpenAI's guides).
  if (answer.compaction !== undefined && responsesCompactionAsked(request)) {
    const hex = createHash('sha256').update(`${scenario}/${call}/compaction`).digest('hex').slice(0, 32);
    output.push({
      id: `cmp_${hex}`,
      type: 'compaction',
      encrypted_content: mockCompactionContent(spec.id, `${scenario}/${call}`),
    });
  }
  if (reasons) {
    output.push({
      id: ids.reasoning,
      type: 'reasoning',
      summary: summaryText !== undefined ? [{ type: 'summary_text', text: summaryText }] : [],
      // Issued for the organization this provider reaches OpenAI as: replayed elsewhere it is another organization's.
      // Without include the real API sends none: the item can then only be referred to by id (store true).
      ...(asked.encrypted
        ? { encrypted_content: mockEncryptedContent(ids.reasoning, `${scenario}/${call}`, organizationOf(spec.id)) }
        : {}),
    });
  }
  if (answer.content) {
    output.push({
      id: ids.message,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: answer.content }],
    });
  }
  calls.forEach((c, n) => {
    output.push({
      id: ids.functionCall(n),
      type: 'function_call',
      status: 'completed',
      call_id: c.id,
      name: c.function.name,
      arguments: c.function.arguments,
    });
  });
  const created_at = 1_767_225_600 + call;
  const usage = {
    input_tokens: 20 + call * 40,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: 30,
    output_tokens_details: { reasoning_tokens: reasons ? 12 : 0 },
    total_tokens: 50 + call * 40,
  };
  const responseId = `resp_${ids.reasoning.slice(3)}`;
  const body = responseObject({
    id: responseId,
    created_at,
    model: model ?? spec.target.model,
    output,
    usage,
    stored: asked.stored,
    reasons,
    request: request ?? {},
  });

  // As the API streams it: created, then in_progress, both with no output and no usage yet.
  const pending = { ...body, status: 'in_progress', completed_at: null, output: [], usage: null };
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: pending },
    { type: 'response.in_progress', response: pending },
  ];
  output.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      // The added item's encrypted_content is incomplete ("may be incomplete", OpenAI's spec): a
      // reader that keeps it instead of the done item's replays a blob the mock refuses.
      const whole = typeof item.encrypted_content === 'string' ? item.encrypted_content : undefined;
      events.push({
        type: 'response.output_item.added',
        output_index,
        item: {
          id: item.id,
          type: 'reasoning',
          summary: [],
          ...(whole !== undefined ? { encrypted_content: whole.slice(0, Math.floor(whole.length / 2)) } : {}),
        },
      });
      (item.summary as Array<{ text: string }>).forEach((part, summary_index) => {
        events.push({
          type: 'response.reasoning_summary_part.added',
          item_id: item.id,
          output_index,
          summary_index,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of chunkText(part.text))
          events.push({
            type: 'response.reasoning_summary_text.delta',
            item_id: item.id,
            output_index,
            summary_index,
            delta,
          });
        events.push({
          type: 'response.reasoning_summary_text.done',
          item_id: item.id,
          output_index,
          summary_index,
          text: part.text,
        });
        events.push({
          type: 'response.reasoning_summary_part.done',
          item_id: item.id,
          output_index,
          summary_index,
          part: { type: 'summary_text', text: part.text },
        });
      });
    } else if (item.type === 'message') {
      const text = (item.content as Array<{ text: string }>)[0]!.text;
      events.push({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      events.push({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
      for (const delta of chunkText(text))
        events.push({
          type: 'response.output_text.delta',
          item_id: item.id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      events.push({
        type: 'response.output_text.done',
        item_id: item.id,
        output_index,
        content_index: 0,
        text,
        logprobs: [],
      });
      events.push({
        type: 'response.content_part.done',
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text },
      });
    } else if (item.type === 'compaction') {
      // Whole only in output_item.done, as encrypted reasoning is.
      events.push({ type: 'response.output_item.added', output_index, item: { id: item.id, type: 'compaction' } });
    } else {
      events.push({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of chunkText(String(item.arguments), 2))
        events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta });
      events.push({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        name: item.name,
        output_index,
        arguments: item.arguments,
      });
    }
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: 'response.completed', response: body });
  const stream: SseEvent[] = events.map((e, i) => ({
    event: String(e.type),
    data: JSON.stringify({ ...e, sequence_number: i }),
    atMs: i * 15,
  }));
  return { body, stream };
};
