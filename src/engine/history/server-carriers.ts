import type { Message } from '../../shared/history/history.js';
import type { RoutePolicy, ServerCarrierKind } from '../../shared/route-table/route-table.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/**
 * Provider-side carriers: what a provider hands back for the client to echo, standing for context it
 * keeps on its side. In 2026 that is server compaction: Anthropic's `compaction` content block
 * (compact_20260112) and the Responses API's `compaction` output item. Both arrive among the other
 * blocks or items of an answer and are kept verbatim, in place, in the route's native record
 * (`{kind: 'block'}` / `{kind: 'item'}`); this module only names them. The provider ignores what
 * stands before the newest one, so losing it loses the whole earlier conversation.
 */
const KIND_BY_TYPE: Readonly<Record<string, ServerCarrierKind>> = { compaction: 'compaction' };

/** The server-carrier kind of one verbatim block or item, if it is one. */
export function serverCarrierKind(verbatim: unknown): ServerCarrierKind | undefined {
  return isPlainObject(verbatim) && typeof verbatim.type === 'string' ? KIND_BY_TYPE[verbatim.type] : undefined;
}

/** The verbatim blocks/items of a message's native record (Claude `blocks`, Responses `items`), in order. */
function verbatimEntries(message: Message): Record<string, unknown>[] {
  const fields = message.native?.fields;
  if (!fields) return [];
  const out: Record<string, unknown>[] = [];
  for (const list of [fields.blocks, fields.items]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (!isPlainObject(entry)) continue;
      const held = entry.kind === 'block' ? entry.block : entry.kind === 'item' ? entry.item : undefined;
      if (isPlainObject(held)) out.push(held);
    }
  }
  return out;
}

/** The server carriers a message holds, in answer order. */
export function serverCarriersOf(message: Message): { kind: ServerCarrierKind; value: Record<string, unknown> }[] {
  return verbatimEntries(message).flatMap((value) => {
    const kind = serverCarrierKind(value);
    return kind ? [{ kind, value }] : [];
  });
}

/** Index of the newest message holding a server compaction carrier, or -1. */
export function lastServerCompaction(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--)
    if (serverCarriersOf(messages[i]!).some((c) => c.kind === 'compaction')) return i;
  return -1;
}

/**
 * Whether a verbatim block or item may go to this route: anything that is not a server carrier may (the
 * native record already reaches its own route only); a server carrier only where the route table says
 * the route reads that kind back. A route sharing a record key with another (or a table edit that makes
 * it do so) must not be handed a compaction item the other provider encrypted.
 */
export function replaysVerbatim(verbatim: unknown, policy: RoutePolicy): boolean {
  const kind = serverCarrierKind(verbatim);
  return kind === undefined || (policy.serverCarriers?.includes(kind) ?? false);
}
