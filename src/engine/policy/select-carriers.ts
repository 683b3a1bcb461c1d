import { hasStoredReasoning } from '../history/carriers.js';
import type { Message, ReasoningDetail, StandardCarrierField } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';

/** The must-echo pad. Never `""`: DeepSeek V4 rejects an empty string as missing. */
export const MUST_ECHO_PLACEHOLDER = ' ';

/** The carriers one assistant message sends on one route, before a family puts them on the wire. */
export interface SelectedCarriers {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: ReasoningDetail[];
  /** Fields of the native record, present only when the route owns the record. */
  native?: Record<string, unknown>;
  /** True when reasoning_content is the must-echo pad, not reasoning. */
  padded?: boolean;
}

const nonBlank = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/** The readable text of typed reasoning items, joined; undefined when there is none (only encrypted/redacted items). */
export function readableDetailText(details: readonly ReasoningDetail[] | undefined): string | undefined {
  const parts: string[] = [];
  for (const d of details ?? []) {
    const text =
      d.type === 'reasoning.text'
        ? d.text
        : d.type === 'thinking'
          ? d.thinking
          : d.type === 'reasoning.summary'
            ? d.summary
            : undefined;
    if (nonBlank(text)) parts.push(text);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * Reasoning a must-echo route can be sent as reasoning_content: stored text, or the readable text of
 * typed items. A turn with only encrypted items has none, so it gets the pad.
 */
export function hasReadableReasoning(message: Message): boolean {
  return (
    nonBlank(message.reasoning_content) ||
    nonBlank(message.reasoning) ||
    readableDetailText(message.reasoning_details) !== undefined
  );
}

export function isToolCallTurn(message: Message): boolean {
  return message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0;
}

/**
 * Decides what of one message's carriers may travel on `policy`'s route. Carriers live only on
 * assistant messages; `omit` is the set of fields a provider refused at run time (the fallback).
 */
export function selectCarriers(
  message: Message,
  policy: RoutePolicy,
  omit: ReadonlySet<StandardCarrierField> = new Set(),
): SelectedCarriers {
  if (message.role !== 'assistant' || policy.tier === 'strict') return {};
  const out: SelectedCarriers = {};
  const reads = (field: StandardCarrierField) =>
    policy.fields.includes(field) &&
    (!omit.has(field) || (field === 'reasoning_content' && policy.tier === 'must-echo'));

  // The two readable carriers are aliases on the wire (OpenRouter documents reasoning_content as an
  // alias of reasoning), so a blank one falls back to the other rather than being dropped.
  if (reads('reasoning_content')) {
    const text = nonBlank(message.reasoning_content)
      ? message.reasoning_content
      : nonBlank(message.reasoning)
        ? message.reasoning
        : undefined;
    if (text !== undefined) out.reasoning_content = text;
  }
  if (reads('reasoning')) {
    const text = nonBlank(message.reasoning)
      ? message.reasoning
      : nonBlank(message.reasoning_content)
        ? message.reasoning_content
        : undefined;
    if (text !== undefined) out.reasoning = text;
  }
  if (reads('reasoning_details') && (message.reasoning_details?.length ?? 0) > 0) {
    // Signed and encrypted items are only valid byte for byte: hand over the same objects, in order.
    out.reasoning_details = message.reasoning_details;
  }
  if (policy.tier === 'must-echo' && out.reasoning_content === undefined && isToolCallTurn(message)) {
    // A turn captured on another route may hold its reasoning only as typed items, which a
    // must-echo route cannot read: echo their readable text rather than drop the field (a 400
    // there). With no readable text at all (only encrypted items) the pad goes out: found by the
    // fallback property test, where such a tool turn went to Kimi without reasoning_content.
    const text = hasStoredReasoning(message) ? readableDetailText(message.reasoning_details) : undefined;
    if (text !== undefined) out.reasoning_content = text;
    else {
      out.reasoning_content = MUST_ECHO_PLACEHOLDER;
      out.padded = true;
    }
  }
  if (policy.native && message.native?.route === policy.native) out.native = message.native.fields;
  return out;
}
