import { familyFor } from '../families/registry.js';
import type { OutboundRequest, RequestOptions } from '../families/family.js';
import type { History } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';

/**
 * History + route policy -> the exact request. Families build new objects and never edit what they
 * read: the same history is replayed to several routes and must stay byte-identical (tested).
 */
export function replayForRoute(history: History, policy: RoutePolicy, options: RequestOptions = {}): OutboundRequest {
  return familyFor(policy.family).toRequest(history, policy, options);
}
