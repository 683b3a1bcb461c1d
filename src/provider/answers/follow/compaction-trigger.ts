import type { FamilyId } from '../../../shared/wire/families.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/**
 * Whether a live request has passed the server-compaction trigger it set, so follow mode's answer opens with a
 * compaction block as the real API's does. Anthropic compact_20260112: `trigger` {type: "input_tokens", value}, default
 * 150,000 (https://platform.claude.com/docs/en/build-with-claude/compaction, read 2026-12-07). The input counted is what
 * the API reads: the system prompt, the tools, and the messages from the newest compaction block on (it ignores what
 * stands before it), at the mocks' rough four characters a token. Other families: never (the Responses route compacts
 * through POST /responses/compact).
 */
export const DEFAULT_COMPACTION_TRIGGER = 150_000;

export function passesCompactionTrigger(family: FamilyId, body: unknown): boolean {
  if (family !== 'anthropic-messages' || !isPlainObject(body)) return false;
  const edits = isPlainObject(body.context_management) ? body.context_management.edits : undefined;
  const edit = Array.isArray(edits) ? edits.find((e) => isPlainObject(e) && e.type === 'compact_20260112') : undefined;
  if (!isPlainObject(edit)) return false;
  const trigger =
    isPlainObject(edit.trigger) && typeof edit.trigger.value === 'number' ? edit.trigger.value : undefined;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let from = 0;
  messages.forEach((m: unknown, i: number) => {
    if (
      isPlainObject(m) &&
      Array.isArray(m.content) &&
      m.content.some((b) => isPlainObject(b) && b.type === 'compaction')
    )
      from = i;
  });
  const read = JSON.stringify([body.system ?? null, body.tools ?? null, messages.slice(from)]);
  return Math.ceil(read.length / 4) >= (trigger ?? DEFAULT_COMPACTION_TRIGGER);
}
