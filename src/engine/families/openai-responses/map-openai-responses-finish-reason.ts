/**
 * A Responses answer has a status, not a finish reason: `completed` (with or without function
 * calls), or `incomplete` with `incomplete_details.reason`.
 */
export function mapOpenAIResponsesFinishReason(
  status: unknown,
  incompleteReason: unknown,
  hasFunctionCalls: boolean,
): string | null {
  switch (status) {
    case 'completed':
      return hasFunctionCalls ? 'tool-calls' : 'stop';
    case 'incomplete':
      if (incompleteReason === 'max_output_tokens') return 'length';
      if (incompleteReason === 'content_filter') return 'content-filter';
      return 'other';
    case undefined:
    case null:
    case 'in_progress':
    case 'queued':
      return null;
    default:
      return 'other';
  }
}
