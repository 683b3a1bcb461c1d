import type { FamilyId } from '../routes/route-table.js';

/** The Anthropic API version header value the Messages API documents as current. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * How each wire family presents an API key. Bedrock signs every request with SigV4 from AWS
 * credentials, which is a signing step rather than a header; it is not supported here yet.
 */
export function authHeaders(family: FamilyId, apiKey: string | undefined): Record<string, string> {
  if (family === 'anthropic-messages') return { ...(apiKey ? { 'x-api-key': apiKey } : {}), 'anthropic-version': ANTHROPIC_VERSION };
  if (!apiKey) return {};
  switch (family) {
    case 'gemini':
      return { 'x-goog-api-key': apiKey };
    case 'bedrock-converse':
      throw new Error('recording bedrock-converse needs SigV4 request signing, which the recorder does not do yet');
    default:
      return { authorization: `Bearer ${apiKey}` };
  }
}
