import type { Message, NativeCarrierRecord, ReasoningDetail } from '../../shared/history/history.js';

/**
 * What one provider answer carried, before it becomes an assistant message. Families produce this
 * from a body or from stream deltas; `toAssistantMessage` is the single place it joins history.
 */
export interface Carriers {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: ReasoningDetail[];
  native?: NativeCarrierRecord;
}

export function carrierKinds(message: Message): string[] {
  const kinds: string[] = [];
  if (message.reasoning_content !== undefined) kinds.push('reasoning_content');
  if (message.reasoning !== undefined) kinds.push('reasoning');
  if (message.reasoning_details !== undefined) kinds.push('reasoning_details');
  if (message.native !== undefined) kinds.push(`native:${message.native.route}`);
  return kinds;
}

/** True when the message holds readable or opaque reasoning (a pad of whitespace does not count). */
export function hasStoredReasoning(message: Message): boolean {
  const text = (s: string | undefined) => s !== undefined && s.trim() !== '';
  return text(message.reasoning_content) || text(message.reasoning) || (message.reasoning_details?.length ?? 0) > 0;
}
