import type { EngineUnderTest } from '../../judge/engine-under-test.js';
import { familyFor } from '../../engine/families/registry.js';
import { sendWithFallback } from '../../engine/replay/fallback.js';
import { UnknownFieldVerdicts } from '../../engine/replay/unknown-field-verdicts.js';
import { builtInStorage } from './built-in-storage.js';
import { InvariantError } from '../../shared/errors/invariant-error.js';

/**
 * This project's own engine as an engine under test: replayForRoute through the unknown-field
 * fallback (verdicts kept per cell, as a session would), answers read by the family's parser or
 * stream accumulator, sessions kept by its SessionStore and compacted by compress. The run judges it
 * exactly as it would judge an external one: the judge (src/conformance) only sees the seam, and the
 * callers (check, report, gate, recorder, benches) inject this adapter.
 */
export const builtInEngine: EngineUnderTest = {
  name: 'built-in',
  startSession() {
    const verdicts = new UnknownFieldVerdicts();
    return {
      async turn({ history, policy, options }, send) {
        const result = await sendWithFallback({ history, policy, options, verdicts, transport: send });
        return {
          attempts: result.attempts.map((a) => ({ attempt: a.attempt, request: a.request, response: a.response })),
          withheld: result.recorded,
        };
      },
      readAnswer(response, policy) {
        const family = familyFor(policy.family);
        if (typeof response.body === 'string' && (response.headers['content-type'] ?? '').includes('event-stream')) {
          if (!family.streamCarriers) throw new InvariantError(`the ${policy.family} family cannot read streams yet`);
          const carriers = family.streamCarriers(policy);
          carriers.feed(response.body);
          return carriers.end().message;
        }
        return family.fromResponse(response.body, policy).message;
      },
    };
  },
  storage: builtInStorage,
};
