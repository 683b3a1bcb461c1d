import { normalizeHost } from '../routes/host-matching.js';
import type { FamilyId } from '../routes/route-table.js';

/** The Anthropic API version header value the Messages API documents as current. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * How a request presents its credential, by wire family and host:
 *  - OpenAI-compatible, Responses, Copilot: `Authorization: Bearer <key>`;
 *  - Anthropic Messages: `x-api-key` + `anthropic-version`;
 *  - Gemini API (generativelanguage): `x-goog-api-key`;
 *  - Vertex AI (aiplatform.googleapis.com, Gemini or Anthropic models): an OAuth access token as
 *    `Authorization: Bearer` (`gcloud auth print-access-token`), not an API key;
 *  - Bedrock: a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) as `Authorization: Bearer`
 *    (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html); without one, no
 *    header here: the request is SigV4-signed from AWS access keys below the capture
 *    (aws-sigv4.ts), and the caller checks those keys exist.
 */
export function authHeaders(family: FamilyId, apiKey: string | undefined, host = ''): Record<string, string> {
  // Regional Vertex hosts prefix the region with a hyphen: us-east5-aiplatform.googleapis.com.
  const vertex = /(^|[.-])aiplatform\.googleapis\.com$/.test(normalizeHost(host));
  if (family === 'anthropic-messages' && !vertex) return { ...(apiKey ? { 'x-api-key': apiKey } : {}), 'anthropic-version': ANTHROPIC_VERSION };
  if (!apiKey) return {};
  if (family === 'gemini' && !vertex) return { 'x-goog-api-key': apiKey };
  return { authorization: `Bearer ${apiKey}` };
}
