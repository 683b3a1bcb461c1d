import { familyFor } from '../../../engine/families/registry.js';
import { InvariantError } from '../../../shared/errors/invariant-error.js';
import type { Message } from '../../../shared/history/history.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { ExchangeResponse } from '../../../shared/transport/transport.js';

/** An answer read into history by the route family's parser, or by its stream accumulator for a stream. */
export function readBuiltInAnswer(response: ExchangeResponse, policy: RoutePolicy): Message {
  const family = familyFor(policy.family);
  if (typeof response.body === 'string' && (response.headers['content-type'] ?? '').includes('event-stream')) {
    if (!family.streamCarriers) throw new InvariantError(`the ${policy.family} family cannot read streams yet`);
    const carriers = family.streamCarriers(policy);
    carriers.feed(response.body);
    return carriers.end().message;
  }
  return family.fromResponse(response.body, policy).message;
}
