import type { Message } from '../../shared/history/history.js';

/**
 * How a compaction checkpoint lives in the canonical history: a `user` message whose string content
 * starts with this marker, followed by the summary of what it replaced. A user message because every
 * wire family accepts one after the system prompt and a summary is context the model should read;
 * a content marker (not a new message key) because the history schema and every family stay
 * unchanged and a checkpoint survives storage, branching and replay like any other message.
 */
export const CHECKPOINT_MARKER = '[reasoning-replay compaction checkpoint]\n';

export function isCheckpoint(message: Message): boolean {
  return (
    message.role === 'user' && typeof message.content === 'string' && message.content.startsWith(CHECKPOINT_MARKER)
  );
}

export function makeCheckpoint(summary: string): Message {
  return { role: 'user', content: CHECKPOINT_MARKER + summary };
}

export function checkpointSummary(message: Message): string {
  return isCheckpoint(message) ? (message.content as string).slice(CHECKPOINT_MARKER.length) : '';
}

/** The last user message that is a real one (not a checkpoint); -1 when there is none. */
export function lastRealUserIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user' && !isCheckpoint(messages[i]!)) return i;
  }
  return -1;
}

/**
 * Indices of checkpoints shadowed by a newer one: among the checkpoints before the last real user
 * message, every one but the last. These are the only messages compaction may drop from the
 * retained part of a history; checkpoints after the last user message are part of the live turn.
 */
export function shadowedCheckpoints(messages: readonly Message[]): number[] {
  const lastUser = lastRealUserIndex(messages);
  const before: number[] = [];
  for (let i = 0; i < lastUser; i++) if (isCheckpoint(messages[i]!)) before.push(i);
  return before.slice(0, -1);
}
