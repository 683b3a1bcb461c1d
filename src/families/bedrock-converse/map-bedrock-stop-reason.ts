/** Converse `stopReason` -> the harness's finish reasons. */
export function mapBedrockStopReason(reason: unknown): string | null {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content-filter';
    case null:
    case undefined:
      return null;
    default:
      return 'other';
  }
}
