import { normalizeHost } from '../../../shared/route-table/host-matching.js';
import { familyDescriptor, type AuthScheme, type FamilyId } from '../../../shared/wire/families.js';

/**
 * How a request presents its credential, by wire family and host:
 *  - OpenAI-compatible, Responses, Copilot: `Authorization: Bearer <key>`;
 *  - Anthropic Messages: `x-api-key` + `anthropic-version` (the value in its descriptor);
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
  // Off Vertex the family's descriptor says how it presents a key; on Vertex every family takes a Bearer token.
  const auth: AuthScheme = vertex ? { kind: 'bearer' } : familyDescriptor(family).auth;
  if (auth.kind === 'header') return { ...(apiKey ? { [auth.header]: apiKey } : {}), ...auth.extraHeaders };
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}
