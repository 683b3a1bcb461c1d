/** Anthropic `stop_reason` -> the harness's finish reasons (the same words openai-chat maps to). */
export function mapAnthropicFinishReason(reason: unknown): string | null {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    case null:
    case undefined:
      return null;
    default:
      return 'other';
  }
}
