/**
 * Gemini finish reasons -> the shared vocabulary. Gemini says STOP after function calls too, so
 * whether calls were made decides between `stop` and `tool-calls`.
 */
export function mapGeminiFinishReason(reason: unknown, hasFunctionCalls: boolean): string | null {
  switch (reason) {
    case undefined:
    case null:
      return null;
    case 'STOP':
      return hasFunctionCalls ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    default:
      return 'other';
  }
}
