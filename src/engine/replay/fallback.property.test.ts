import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  aHistory,
  aRoutePolicy,
  aSetOfFieldsTheProviderReads,
  PROPERTY_RUNS,
  PROPERTY_TIMEOUT_MS,
} from '../../../test/helpers/history-arbitraries.test-helper.js';
import { aProviderThatReads, wireCarrierFields } from '../../../test/helpers/fake-transport.test-helper.js';
import { isToolCallTurn } from '../policy/select-carriers.js';
import { sendWithFallback } from './fallback.js';
import { UnknownFieldVerdicts } from './unknown-field-verdicts.js';

describe('sendWithFallback (property)', () => {
  test(
    'at most two requests, only fields the route reads, the must-echo pad never dropped, history untouched, verdict remembered',
    () =>
      fc.assert(
        fc.asyncProperty(aHistory, aRoutePolicy, aSetOfFieldsTheProviderReads, async (history, policy, reads) => {
          const snapshot = JSON.stringify(history);
          const verdicts = new UnknownFieldVerdicts();
          const provider = aProviderThatReads(reads);
          const result = await sendWithFallback({ history, policy, verdicts, transport: provider.transport });

          expect(provider.requests.length).toBeLessThanOrEqual(2);
          expect(result.attempts).toHaveLength(provider.requests.length);
          expect(JSON.stringify(history)).toBe(snapshot);

          for (const request of provider.requests) {
            for (const field of wireCarrierFields(request)) expect(policy.fields).toContain(field);
            if (policy.tier === 'must-echo' && policy.family === 'openai-chat') {
              const wire = request.body.messages as Record<string, unknown>[];
              history.messages.forEach((m, i) => {
                if (isToolCallTurn(m))
                  expect(typeof wire[i]!.reasoning_content, `tool turn ${i} lost reasoning_content`).toBe('string');
              });
            }
          }
          if (policy.tier === 'must-echo') expect(result.recorded).not.toContain('reasoning_content');
          if (result.attempts[0]!.sentFields.every((f) => reads.includes(f))) expect(provider.requests).toHaveLength(1);

          // Whatever was learned is used at once: the same provider now takes a single request.
          if (result.recorded.length > 0 && !result.retryRejected) {
            const again = aProviderThatReads(reads);
            const second = await sendWithFallback({
              history,
              policy,
              verdicts: UnknownFieldVerdicts.fromModelConfig(JSON.parse(JSON.stringify(verdicts.toModelConfig()))),
              transport: again.transport,
            });
            expect(again.requests).toHaveLength(1);
            expect(second.response.status).toBe(200);
          }
        }),
        { numRuns: PROPERTY_RUNS },
      ),
    PROPERTY_TIMEOUT_MS,
  );
});
