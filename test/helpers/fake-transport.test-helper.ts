import type { OutboundRequest } from '../../src/engine/families/family.js';
import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../src/shared/history/history.js';
import type { TransportResponse } from '../../src/engine/replay/fallback.js';

/** Carrier fields present on the wire messages of an openai-chat-shaped body, in order of first sight. */
export function wireCarrierFields(request: OutboundRequest): StandardCarrierField[] {
  const messages = request.body.messages;
  if (!Array.isArray(messages)) return [];
  const seen = new Set<StandardCarrierField>();
  for (const m of messages as Record<string, unknown>[])
    for (const f of STANDARD_CARRIER_FIELDS) if (f in m) seen.add(f);
  return STANDARD_CARRIER_FIELDS.filter((f) => seen.has(f));
}

export interface FakeProvider {
  transport: (request: OutboundRequest) => Promise<TransportResponse>;
  requests: OutboundRequest[];
}

/**
 * A provider that reads only `reads` and answers any other carrier on a message with a 400 in
 * Cerebras' published shape ("… property '…' is unsupported", code wrong_api_format); the path in it
 * is built for the request at hand. Accepts everything else with 200.
 */
export function aProviderThatReads(reads: readonly StandardCarrierField[]): FakeProvider {
  const requests: OutboundRequest[] = [];
  const transport = async (request: OutboundRequest): Promise<TransportResponse> => {
    requests.push(request);
    const messages = Array.isArray(request.body.messages) ? (request.body.messages as Record<string, unknown>[]) : [];
    for (const [i, m] of messages.entries()) {
      for (const field of STANDARD_CARRIER_FIELDS) {
        if (field in m && !reads.includes(field)) {
          const path = `messages.${i}.${String(m.role)}.${field}`;
          return {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: {
              message: `${path}: property '${path}' is unsupported`,
              type: 'invalid_request_error',
              param: 'validation_error',
              code: 'wrong_api_format',
            },
          };
        }
      }
    }
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] },
    };
  };
  return { transport, requests };
}
