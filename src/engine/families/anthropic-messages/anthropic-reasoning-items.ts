import type {
  AnthropicRedactedThinkingDetail,
  AnthropicThinkingDetail,
  ReasoningDetail,
} from '../../../shared/history/history.js';

/** The OpenRouter `format` of reasoning that Claude produced; only these items carry Claude signatures. */
export const ANTHROPIC_DETAIL_FORMAT = 'anthropic-claude-v1';

/** A stored reasoning item reduced to what an Anthropic-family wire can carry. */
export type AnthropicReasoningItem =
  | { type: 'thinking'; thinking: string; signature?: string }
  /** `surface`: the wire family whose encoding `data` is in (see redactedCrosses). */
  | { type: 'redacted_thinking'; data: string; surface?: RedactedSurface };

/**
 * A redacted block's blob is in the encoding of the surface that issued it: the Messages API's
 * `redacted_thinking.data` and Converse's `reasoningContent.redactedContent` do not decode to the
 * same string, so a blob only goes back to the surface that issued it. A stored item with no
 * surface (written by hand, or stored before this was recorded) is sent as before.
 */
export type RedactedSurface = 'anthropic-messages' | 'bedrock-converse';

export function redactedCrosses(item: AnthropicReasoningItem, to: RedactedSurface): boolean {
  return item.type !== 'redacted_thinking' || item.surface === undefined || item.surface === to;
}

const surfaceOf = (value: unknown): RedactedSurface | undefined =>
  value === 'anthropic-messages' || value === 'bedrock-converse' ? value : undefined;

/**
 * Reads both spellings of Claude reasoning in history: the Anthropic shape this family stores
 * (`thinking` / `redacted_thinking`) and OpenRouter's (`reasoning.text` / `reasoning.encrypted`
 * with format `anthropic-claude-v1`). Order is kept exactly: it is part of what the signature
 * vouches for. Readable text of another format is kept WITHOUT its signature, since a foreign
 * signature is never valid on Claude; foreign encrypted blobs and summaries are dropped, as no
 * Anthropic-family wire can say them. Envelope keys (id, index, format) are not part of a signed
 * block and Anthropic's strict schema refuses them, so they are left behind.
 */
export function anthropicReasoningItems(details: readonly ReasoningDetail[] | undefined): AnthropicReasoningItem[] {
  const items: AnthropicReasoningItem[] = [];
  for (const detail of details ?? []) {
    switch (detail.type) {
      case 'thinking': {
        const d = detail as AnthropicThinkingDetail;
        items.push(
          typeof d.signature === 'string'
            ? { type: 'thinking', thinking: d.thinking, signature: d.signature }
            : { type: 'thinking', thinking: d.thinking },
        );
        break;
      }
      case 'redacted_thinking': {
        const surface = surfaceOf(detail.surface);
        items.push({
          type: 'redacted_thinking',
          data: (detail as AnthropicRedactedThinkingDetail).data,
          ...(surface ? { surface } : {}),
        });
        break;
      }
      case 'reasoning.text': {
        const claude = detail.format === ANTHROPIC_DETAIL_FORMAT;
        const signature = claude && typeof detail.signature === 'string' ? detail.signature : undefined;
        items.push(
          signature !== undefined
            ? { type: 'thinking', thinking: detail.text, signature }
            : { type: 'thinking', thinking: detail.text },
        );
        break;
      }
      case 'reasoning.encrypted':
        if (detail.format === ANTHROPIC_DETAIL_FORMAT) items.push({ type: 'redacted_thinking', data: detail.data });
        break;
      default:
        break;
    }
  }
  return items;
}

/** True when the item can be replayed to Claude as it stands: signed thinking, or a redacted blob. */
export function isReplayableToClaude(item: AnthropicReasoningItem): boolean {
  return item.type === 'redacted_thinking' || (typeof item.signature === 'string' && item.signature !== '');
}

/** Back to the stored shape (the form `reasoning_details` holds for every Anthropic-family route). */
export function toStoredDetail(item: AnthropicReasoningItem): ReasoningDetail {
  return item.type === 'thinking'
    ? item.signature !== undefined
      ? { type: 'thinking', thinking: item.thinking, signature: item.signature }
      : { type: 'thinking', thinking: item.thinking }
    : { type: 'redacted_thinking', data: item.data, ...(item.surface ? { surface: item.surface } : {}) };
}

/**
 * The opaque strings (signatures, redacted blobs) of stored reasoning that a Claude-family route
 * must get back byte for byte, in order. For the gate's signatures-verbatim check: items of other
 * formats are correctly never sent to Claude, so they must not count as missing there.
 */
export function claudeOpaqueStrings(details: readonly ReasoningDetail[] | undefined): string[] {
  return anthropicReasoningItems(details)
    .filter(isReplayableToClaude)
    .map((item) => (item.type === 'thinking' ? item.signature! : item.data));
}
