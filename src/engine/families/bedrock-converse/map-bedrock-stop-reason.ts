import { mapAnthropicFinishReason } from '../anthropic-messages/map-anthropic-finish-reason.js';

/** Converse `stopReason` -> the harness's finish reasons: Converse uses Claude's words, plus its own two filters. */
export function mapBedrockStopReason(reason: unknown): string | null {
  if (reason === 'guardrail_intervened' || reason === 'content_filtered') return 'content-filter';
  return mapAnthropicFinishReason(reason);
}
