import { familyFor } from '../../../engine/families/registry.js';
import { InvariantError } from '../../../shared/errors/invariant-error.js';
import type { History, Message } from '../../../shared/history/history.js';
import type { ParsedAnswer } from '../../../engine/families/parsed-answer.js';
import { removeDroppedThinking } from '../../../engine/history/without-dropped-thinking.js';
import { sentThinkingSignatures } from '../../../engine/families/anthropic-messages/dropped-thinking.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { ExchangeResponse } from '../../../shared/transport/transport.js';

/**
 * An answer read into history by the route family's parser, or by its stream accumulator for a stream; given the
 * history the request was built from and the body sent, the thinking blocks the answer reports dropped leave it.
 */
export function readBuiltInAnswer(
  response: ExchangeResponse,
  policy: RoutePolicy,
  repair: { history?: History; sent?: unknown } = {},
): Message {
  const family = familyFor(policy.family);
  let parsed: ParsedAnswer;
  if (typeof response.body === 'string' && (response.headers['content-type'] ?? '').includes('event-stream')) {
    if (!family.streamCarriers) throw new InvariantError(`the ${policy.family} family cannot read streams yet`);
    const carriers = family.streamCarriers(policy);
    carriers.feed(response.body);
    parsed = carriers.end();
  } else parsed = family.fromResponse(response.body, policy);
  // Thinking the provider dropped (and said so) is gone for the model: the stored history loses it too.
  if (repair.history && parsed.droppedThinking)
    removeDroppedThinking(repair.history, sentThinkingSignatures(parsed.droppedThinking, repair.sent));
  return parsed.message;
}
