import {
  ENGINE_OPERATIONS,
  type AnswerInput,
  type EngineUnderTest,
  type TurnInput,
} from '../../../judge/engine-under-test.js';
import { routeForTarget } from '../../../engine/policy/route-for-target.js';
import { sendWithFallback } from '../../../engine/replay/fallback.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { UnknownFieldVerdicts } from '../../../engine/replay/unknown-field-verdicts.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { readBuiltInAnswer } from './read-built-in-answer.js';
import { builtInCompaction, builtInStorage } from './built-in-storage.js';

/** The engine's own route for the target it was told, resolved from the table as an agent would. */
export const builtInPolicy = (input: Pick<TurnInput, 'target' | 'table'>): RoutePolicy =>
  routeForTarget(input.table, { provider: input.target.provider, host: input.target.host, model: input.target.model });

/**
 * This project's own engine as an engine under test: it resolves its route from the target it is
 * told (routeForTarget), sends through the unknown-field fallback (verdicts kept per cell, as a
 * session would), reads answers with the family's parser or stream accumulator, keeps sessions in
 * its SessionStore and compacts with compress. The run judges it exactly as it would judge an
 * external one: the judge only sees the seam, and the callers (check, report, gate, recorder,
 * benches) inject this adapter.
 */
export const builtInEngine: EngineUnderTest = {
  name: 'built-in',
  operations: new Set(ENGINE_OPERATIONS),
  startSession() {
    const verdicts = new UnknownFieldVerdicts();
    // One resolution per target and cell: a cell asks for the same target on every turn.
    const policies = new Map<string, RoutePolicy>();
    const policyOf = (input: AnswerInput) => {
      const key = `${input.target.provider}\n${input.target.host}\n${input.target.model}`;
      let policy = policies.get(key);
      if (!policy) policies.set(key, (policy = builtInPolicy(input)));
      return policy;
    };
    return {
      async turn(input, send) {
        const result = await sendWithFallback({
          history: input.history,
          policy: policyOf(input),
          options: input.options,
          verdicts,
          transport: send,
        });
        return {
          attempts: result.attempts.map((a) => ({ attempt: a.attempt, request: a.request, response: a.response })),
          withheld: result.recorded,
        };
      },
      readAnswer: async (response, input) => readBuiltInAnswer(response, policyOf(input), input),
    };
  },
  buildRequest: async (history, input) => replayForRoute(history, builtInPolicy(input), input.options),
  storage: builtInStorage,
  compaction: builtInCompaction,
};
