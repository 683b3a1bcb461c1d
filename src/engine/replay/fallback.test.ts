import { describe, expect, it } from 'vitest';
import type { OutboundRequest } from '../families/family.js';
import type { History } from '../../shared/history/history.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { sendWithFallback, sentCarrierFields, type TransportResponse } from './fallback.js';
import { UnknownFieldVerdicts } from './unknown-field-verdicts.js';

const table = loadRouteTable();
const policyFor = (provider: string, host: string, model: string) => resolveRoute(table, { provider, host, model });

const history: History = {
  messages: [
    { role: 'user', content: 'weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'need the tool',
      reasoning: 'need the tool',
      reasoning_details: [{ type: 'reasoning.encrypted', data: 'ZW5j', format: 'openai-responses-v1', index: 0 }],
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '21C' },
  ],
};

const carrierKeysOf = (request: OutboundRequest) =>
  [
    ...new Set(
      (request.body.messages as Record<string, unknown>[]).flatMap((m) =>
        Object.keys(m).filter((k) => k.startsWith('reasoning')),
      ),
    ),
  ].sort();

/** A fake provider that refuses the listed message fields with Cerebras' public wording. */
function refusing(fields: string[], seen: OutboundRequest[]) {
  return async (request: OutboundRequest): Promise<TransportResponse> => {
    seen.push(request);
    const messages = request.body.messages as Record<string, unknown>[];
    for (const [i, m] of messages.entries()) {
      for (const f of fields) {
        if (f in m) {
          const path = `messages.${i}.assistant.${f}`;
          return {
            status: 400,
            headers: {},
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
    return { status: 200, headers: {}, body: { choices: [] } };
  };
}

describe('sendWithFallback', () => {
  it('records the widened verdict and retries once without those fields', async () => {
    const policy = policyFor('openrouter', 'openrouter.ai', 'x/model');
    const verdicts = new UnknownFieldVerdicts();
    const seen: OutboundRequest[] = [];
    const before = JSON.stringify(history);
    const result = await sendWithFallback({
      history,
      policy,
      verdicts,
      transport: refusing(['reasoning_content'], seen),
    });
    expect(result.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(result.recorded).toEqual(['reasoning_content', 'reasoning', 'reasoning_details']);
    expect(carrierKeysOf(seen[0]!)).toEqual(['reasoning', 'reasoning_content', 'reasoning_details']);
    expect(carrierKeysOf(seen[1]!)).toEqual([]);
    expect(result.response.status).toBe(200);
    expect(result.retryRejected).toBe(false);
    expect(JSON.stringify(history)).toBe(before);
    expect([...verdicts.fieldsFor(policy.target)]).toEqual(['reasoning_content', 'reasoning', 'reasoning_details']);
  });

  it('honours recorded verdicts on the first request (a resumed session needs no second 400)', async () => {
    const policy = policyFor('openrouter', 'openrouter.ai', 'x/model');
    const verdicts = UnknownFieldVerdicts.fromEntries([
      ['openrouter', 'openrouter.ai', 'x/model', ['reasoning', 'reasoning_details']],
    ]);
    const seen: OutboundRequest[] = [];
    const result = await sendWithFallback({ history, policy, verdicts, transport: refusing(['reasoning'], seen) });
    expect(result.attempts).toHaveLength(1);
    expect(carrierKeysOf(seen[0]!)).toEqual(['reasoning_content']);
    expect(result.attempts[0]!.omitted).toEqual(['reasoning', 'reasoning_details']);
  });

  it('returns a second rejection to the caller instead of retrying again', async () => {
    const policy = policyFor('openrouter', 'openrouter.ai', 'x/model');
    const verdicts = new UnknownFieldVerdicts();
    const seen: OutboundRequest[] = [];
    // reasoning refused first -> reasoning + details withheld; then reasoning_content refused too.
    const result = await sendWithFallback({
      history,
      policy,
      verdicts,
      transport: refusing(['reasoning', 'reasoning_content'], seen),
    });
    expect(seen).toHaveLength(2);
    expect(result.retryRejected).toBe(true);
    expect(result.response.status).toBe(400);
    expect(result.recorded).toEqual(['reasoning', 'reasoning_details']);
  });

  it('does not retry on an error that is not an unknown-field rejection', async () => {
    const policy = policyFor('openrouter', 'openrouter.ai', 'x/model');
    const seen: OutboundRequest[] = [];
    const result = await sendWithFallback({
      history,
      policy,
      verdicts: new UnknownFieldVerdicts(),
      transport: async (r) => (
        seen.push(r),
        { status: 400, headers: {}, body: { error: { message: 'Provider returned error', code: 400 } } }
      ),
    });
    expect(seen).toHaveLength(1);
    expect(result.recorded).toEqual([]);
  });

  it('never drops reasoning_content on a must-echo route, even when a body names it', async () => {
    const policy = policyFor('deepseek', 'api.deepseek.com', 'deepseek-v4-flash');
    const verdicts = new UnknownFieldVerdicts();
    const seen: OutboundRequest[] = [];
    const result = await sendWithFallback({
      history,
      policy,
      verdicts,
      transport: refusing(['reasoning_content'], seen),
    });
    expect(seen).toHaveLength(1);
    expect(verdicts.size).toBe(0);
    expect(result.recorded).toEqual([]);
    expect(carrierKeysOf(seen[0]!)).toEqual(['reasoning_content']);
  });

  it('computes the sent fields per route', () => {
    expect(sentCarrierFields(history, policyFor('groq', 'api.groq.com', 'm'), new Set())).toEqual([]);
    expect(sentCarrierFields(history, policyFor('novita', 'api.novita.ai', 'm'), new Set())).toEqual([
      'reasoning_content',
      'reasoning_details',
    ]);
    expect(sentCarrierFields(history, policyFor('openrouter', 'openrouter.ai', 'm'), new Set(['reasoning']))).toEqual([
      'reasoning_content',
      'reasoning_details',
    ]);
  });
});
