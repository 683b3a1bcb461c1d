import type { History } from '../../../shared/history/history.js';
import type { ReplayPolicy, RoutePolicy } from '../../../shared/route-table/route-table.js';

/**
 * The route table decides the policy per model (specs/routes.json `modelPolicies`); a policy
 * resolved without one (a hand-built RoutePolicy) falls back to the seed's rule: Claude is signed,
 * everything else unsigned. `strip` is never guessed: it must be listed.
 */
export function bedrockReplayPolicy(policy: RoutePolicy): ReplayPolicy {
  return policy.replayPolicy ?? (policy.target.model.toLowerCase().includes('claude') ? 'signed' : 'unsigned');
}

/**
 * The seed's split point: the last user message. Assistant turns after it belong to the tool loop
 * now in progress and are replayed as captured, since the model needs its own reasoning to finish
 * the loop; turns before it are what `strip` removes. Tool results are not user messages here:
 * in canonical history they have role `tool`.
 */
export function splitPoint(history: History): number {
  for (let i = history.messages.length - 1; i >= 0; i--) if (history.messages[i]!.role === 'user') return i;
  return -1;
}
