/** OpenAI-compatible servers use a handful of spellings for the same few outcomes. */
export function mapOpenAIChatFinishReason(reason: unknown): string | null {
  switch (reason) {
    case 'stop':
    case 'eos':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    case null:
    case undefined:
      return null;
    default:
      return 'other';
  }
}
