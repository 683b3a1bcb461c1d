import { compress } from '../../engine/compaction/compress.js';
import { estimateTokens } from '../../engine/compaction/estimate-tokens.js';
import type { EngineStorage } from '../../judge/engine-under-test.js';
import { replayForRoute } from '../../engine/replay/replay-for-route.js';
import { SessionStore } from '../../engine/session/session-store.js';

/**
 * The built-in engine's storage as the retention checks drive it: SessionStore (a scratch database:
 * no fsync, never a user's state.db), compress and estimateTokens with the route's pricing, and
 * replayForRoute for the request a resumed or branched session would send.
 */
export const builtInStorage: EngineStorage = {
  buildRequest: (history, policy) => replayForRoute(history, policy),
  openStore(file) {
    const store = SessionStore.open(file, { scratch: true });
    return {
      importHistory: (history) => store.importHistory(history),
      resume: (id) => store.resume(id).history,
      branch: (id, atTurn) => store.branch(id, atTurn),
      append: (id, messages) => void store.appendExchange(id, messages),
      close: () => {
        if (store.db.open) store.close();
      },
    };
  },
  estimateTokens: (history, policy) => estimateTokens(history, { policy }),
  compact(history, budget, policy) {
    const result = compress(history, budget, { policy });
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
