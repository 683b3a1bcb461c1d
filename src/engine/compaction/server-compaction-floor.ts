import type { Message } from '../../shared/history/history.js';
import { serverCarriersOf } from '../history/server-carriers.js';

/**
 * Whether the engine's own compaction must keep this message: it holds a provider's compaction carrier
 * (Anthropic's `compaction` block, a Responses `compaction` item). The provider ignores what stands
 * before the newest such message, so the head before it may be summarized freely; the message itself
 * stands for the whole earlier conversation on the provider's side, and summarizing it away loses that
 * context on the next request. compress keeps the newest one (its floor).
 */
export function holdsServerCompaction(message: Message): boolean {
  return message.native !== undefined && serverCarriersOf(message).some((c) => c.kind === 'compaction');
}
