import { compress } from '../../../engine/compaction/compress.js';
import { estimateTokens } from '../../../engine/compaction/estimate-tokens.js';
import { routeForTarget } from '../../../engine/policy/route-for-target.js';
import { sendSessionTurn } from '../../../engine/session/send-session-turn.js';
import { SessionStore } from '../../../engine/session/session-store.js';
import type { EngineCompaction, EngineStorage, TurnInput } from '../../../judge/engine-under-test.js';
import { readBuiltInAnswer } from './read-built-in-answer.js';

const policyOf = (input: Pick<TurnInput, 'target' | 'table'>) =>
  routeForTarget(input.table, { provider: input.target.provider, host: input.target.host, model: input.target.model });

/**
 * The built-in engine's session store as the retention checks drive it: SessionStore (a scratch
 * database: no fsync, never a user's state.db). A stored turn is sendSessionTurn: resume the
 * session with its verdicts, send through the fallback, and write the answer with any new verdict
 * in one transaction.
 */
export const builtInStorage: EngineStorage = {
  async openStore(file) {
    const store = SessionStore.open(file, { scratch: true });
    return {
      importHistory: async (history) => String(store.importHistory(history)),
      resume: async (id) => store.resume(Number(id)).history,
      branch: async (id, atTurn) => String(store.branch(Number(id), atTurn)),
      append: async (id, messages) => void store.appendExchange(Number(id), messages),
      async turn(id, input, send) {
        const result = await sendSessionTurn({
          store,
          sessionId: Number(id),
          policy: policyOf(input),
          transport: send,
          options: input.options,
          readAnswer: (response, policy) => [readBuiltInAnswer(response, policy)],
        });
        return {
          attempts: result.attempts.map((a) => ({ attempt: a.attempt, request: a.request, response: a.response })),
          withheld: result.recorded,
        };
      },
      close: async () => {
        if (store.db.open) store.close();
      },
    };
  },
};

/** compress and estimateTokens with the pricing of the target's route. */
export const builtInCompaction: EngineCompaction = {
  estimateTokens: async (history, input) => estimateTokens(history, { policy: policyOf(input) }),
  async compact(history, budget, input) {
    const result = compress(history, budget, { policy: policyOf(input) });
    return {
      status: result.status,
      history: result.history,
      kept: result.kept,
      estimateBefore: result.estimateBefore,
      estimateAfter: result.estimateAfter,
      dropped: result.dropped.length,
      ...(result.reason !== undefined ? { reason: result.reason } : {}),
    };
  },
};
