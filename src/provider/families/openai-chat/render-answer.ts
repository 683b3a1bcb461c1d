import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import type { ProviderSpec, ReasoningDetailKind } from '../../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../../shared/scenarios/scenario.js';
import { createHash } from 'node:crypto';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import { mockOpaque } from '../../signing/mock-opaque.js';
import { chunkText } from '../../answers/chunk-text.js';
import { servingUpstream, upstreamFor } from '../../rules/gateway-upstream.js';
import { answerSchemasFor } from '../../answers/answer-schemas.js';
import { mockEncryptedContent, mockReasoningId, organizationOf } from '../../signing/openai-issued-items.js';

/** One OpenRouter `reasoning_details` item as the wire carries it (the provider side's own reading). */
type ReasoningDetail =
  | { type: 'reasoning.text'; text: string; signature?: string; id?: string; format?: string; index?: number }
  | { type: 'reasoning.summary'; summary: string; id?: string; format?: string; index?: number }
  | { type: 'reasoning.encrypted'; data: string; id?: string; format?: string; index?: number };

/** A stable opaque blob for a redacted answer: synthesized, so derived from the text, never random. */
function opaqueFor(text: string): string {
  return 'gAAAA' + createHash('sha256').update(text).digest('base64url');
}

interface AnswerShape {
  format: string;
  details: readonly ReasoningDetailKind[];
  /** Name text items `rd-<call>`, as the provider-wide detailFormat answers always have. */
  textIds?: boolean;
}

/** The items an answer carries and their format: a gateway's by the upstream serving the model, else the spec's. */
function answerShape(spec: ProviderSpec, model: string): AnswerShape {
  if (spec.upstreams) {
    const upstream = upstreamFor(spec, model);
    if (upstream?.answer) return upstream.answer;
    // A gateway model no upstream rule covers: plain text, format not specified (OpenRouter's `unknown`).
    if (upstream === undefined) return { format: 'unknown', details: ['text'] };
  }
  const format = spec.response.detailFormat ?? 'unknown';
  return { format, details: [format === 'anthropic-claude-v1' ? 'signed-text' : 'text'], textIds: true };
}

/**
 * The reasoning_details of one answer, each as the upstream issues it through the gateway: Claude's text with a
 * signature from the mock signer the Anthropic judges check (so a turn can be proven to cross to Claude intact);
 * Gemini's thought signature from the Gemini signer, named by the first tool call; OpenAI's summary and its
 * encrypted_content, issued for the gateway's own organization. A redacted answer keeps only its opaque items. Each
 * item has its own `index`, its place in the list: a client's stream reader merges the deltas of one index into one
 * item, so two items at one index would reach it as one (a Gemini text item would swallow its signature item).
 */
function detailsFor(
  answer: ScriptedAnswer,
  shape: AnswerShape,
  seed: { scenario: string; call: number },
  spec: ProviderSpec,
  signers: { gemini: 'gemini' | 'vertex-gemini' } = { gemini: 'gemini' },
): ReasoningDetail[] {
  const reasoning = answer.reasoning ?? '';
  const { format } = shape;
  const firstCall = answer.tool_calls?.[0]?.id;
  // The rs_ id the Responses mock gives this answer's reasoning item (unstored: a gateway keeps no state).
  const rs = mockReasoningId(`${seed.scenario}/${seed.call}`, false);
  const out: ReasoningDetail[] = [];
  for (const kind of shape.details) {
    if (kind === 'signed-text') {
      const common = { id: `rd-${seed.call}`, format, index: out.length };
      out.push(
        answer.redacted
          ? { type: 'reasoning.encrypted', data: mockRedactedData(reasoning, 0), ...common }
          : { type: 'reasoning.text', text: reasoning, signature: mockSignThinking(reasoning, 0), ...common },
      );
    } else if (kind === 'text') {
      if (answer.redacted && shape.details.includes('encrypted')) continue;
      const common = { ...(shape.textIds ? { id: `rd-${seed.call}` } : {}), format, index: out.length };
      out.push(
        answer.redacted
          ? { type: 'reasoning.encrypted', data: opaqueFor(reasoning), ...common }
          : { type: 'reasoning.text', text: reasoning, ...common },
      );
    } else if (kind === 'summary') {
      if (!answer.redacted)
        out.push({ type: 'reasoning.summary', summary: reasoning, id: rs, format, index: out.length });
    } else if (format === 'openai-responses-v1') {
      const data = mockEncryptedContent(rs, `${seed.scenario}/${seed.call}`, organizationOf(spec.id));
      out.push({ type: 'reasoning.encrypted', data, id: rs, format, index: out.length });
    } else {
      const data = mockOpaque(signers.gemini, 'thought', `${seed.scenario}/${seed.call}`);
      out.push({
        type: 'reasoning.encrypted',
        data,
        ...(firstCall ? { id: firstCall } : {}),
        format,
        index: out.length,
      });
    }
  }
  return out;
}

/**
 * A scripted answer as a chat-completions body and its stream, with reasoning in exactly the
 * carriers the provider spec says this provider answers with; a gateway's reasoning_details are
 * those of the upstream serving the model asked for (spec `upstreams[].answer`).
 */
export const renderOpenAIChatAnswer: AnswerRenderer = (answer, { spec, call, scenario, model: asked, request }) => {
  const id = `chatcmpl-${scenario}-${call}`;
  const created = 1_767_225_600 + call;
  const model = asked ?? spec.target.model;
  const reasoning = answer.reasoning;
  const gatewayUpstream = spec.upstreamNamed ? upstreamFor(spec, model) : undefined;
  // A gateway's answer names the upstream that served it (spec upstreamNamed, OpenRouter: "provider":"Google AI
  // Studio"), in the body and in every stream chunk; for a bound upstream, the one the routing choice picked.
  const served = gatewayUpstream
    ? {
        [spec.upstreamNamed!.member]:
          servingUpstream(gatewayUpstream, request)?.providerName ?? gatewayUpstream.providerName,
      }
    : {};
  const carriers: Record<string, unknown> = {};
  if (reasoning !== undefined) {
    for (const field of spec.response.carriers) {
      if (field === 'reasoning_content' || field === 'reasoning') carriers[field] = answer.redacted ? '' : reasoning;
      if (field === 'reasoning_details')
        carriers[field] = detailsFor(answer, answerShape(spec, model), { scenario, call }, spec, {
          // Behind a gateway, the upstream serving this request signs Gemini's thought signature (#491).
          gemini: servingUpstream(upstreamFor(spec, model), request)?.signer ?? 'gemini',
        });
    }
  }
  const toolCalls = answer.tool_calls ?? [];
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  // No text is null, as a stream that sends none gives null: the two shapes must read the same.
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.content ? answer.content : null,
    // Null when the model did not refuse, where the provider's own definition requires the member (OpenAI's). The
    // compatible providers' recorded answers omit it (specs/definitions.json, compatible-no-refusal), and a strict one
    // refuses it when a client echoes the message back; so does a provider whose own message has none (Mistral's).
    ...((spec.response.chatAnswer?.refusalMember ?? answerSchemasFor(spec)?.specs?.includes(spec.id))
      ? { refusal: null }
      : {}),
    ...carriers,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const body = {
    id,
    ...served,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: 20 + call * 40, completion_tokens: 30, total_tokens: 50 + call * 40 },
  };

  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    ...served,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: '' }];
  const details = (carriers.reasoning_details as ReasoningDetail[] | undefined) ?? [];
  // The readable field a gateway streams beside its reasoning_details (OpenRouter: `reasoning`).
  const beside = (['reasoning', 'reasoning_content'] as const).find((f) => typeof carriers[f] === 'string');
  const readable = details.find((d) => d.type === 'reasoning.text' || d.type === 'reasoning.summary');
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const text = carriers[field];
    // Streamed together with the readable detail below, in the same deltas, as OpenRouter does.
    if (typeof text !== 'string' || (readable && field === beside)) continue;
    const pieces = chunkText(text);
    // An empty carrier (a redacted answer) is still sent once, so the stream says it was there.
    for (const piece of pieces.length > 0 ? pieces : ['']) deltas.push({ [field]: piece });
  }
  for (const detail of details) {
    if (detail.type === 'reasoning.text' || detail.type === 'reasoning.summary') {
      // OpenRouter streams each piece once, as `reasoning` and as a reasoning_details item in the same delta
      // (vercel/ai#7644; charmbracelet/fantasy's recorded OpenRouter stream), and Claude's signature alone in a
      // final text-less delta (OpenRouterTeam/ai-sdk-provider#423): an accumulator that drops it breaks Claude replay.
      const text = detail.type === 'reasoning.text' ? detail.text : detail.summary;
      const { signature, ...unsigned } = detail as ReasoningDetail & { signature?: string };
      const pieces = chunkText(text);
      for (const piece of pieces.length > 0 ? pieces : ['']) {
        const item = detail.type === 'reasoning.text' ? { ...unsigned, text: piece } : { ...unsigned, summary: piece };
        deltas.push({
          ...(detail === readable && beside ? { [beside]: piece } : {}),
          reasoning_details: [item],
        });
      }
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
    // Mistral streams each call whole, name and arguments in one delta (spec response.chatAnswer).
    if (spec.response.chatAnswer?.toolCallDeltas === 'whole') {
      deltas.push({ tool_calls: [{ index, ...tc }] });
      return;
    }
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
