import type { RouteDefinition, RoutePolicy } from '../../shared/route-table/route-table.js';
import { familyDescriptor } from '../../shared/wire/families.js';

/**
 * The judge's own reading of the route table: which reasoning carriers a route puts on the wire, on
 * which turns, read from the row's data (family, tier, fields, native, replay policy) and never from
 * the engine's selection code. If the engine disagrees with this reading, the per-request checks
 * catch it; if the table disagrees with a provider's needs, the harm judge does.
 */
export interface Delivery {
  /** The wire carrier as a provider spec names it (echo rules use the same names). */
  carrier: string;
  /**
   * assistant-turns: every assistant turn that holds it; current-loop: only the tool loop after the last user message.
   */
  turns: 'assistant-turns' | 'current-loop';
  /** A must-echo pad fills tool-call turns that hold no reasoning. */
  padded?: boolean;
  /**
   * Only the pad travels, on tool-call turns, even where history holds reasoning: a must-echo row
   * that does not list reasoning_content (the engine sends the stored text only for a listed field).
   */
  padOnly?: boolean;
  /** Signed blocks keep their signature (false: text only, the signature is dropped). */
  signed?: boolean;
  /** Sent as a message key of a chat-shaped body (judged against the message schema). */
  messageKey?: boolean;
  /** The table data that causes it, for messages. */
  because: string;
}

/** What a resolved route puts on the wire for its target, read through its family's wire spelling. */
export function routeDeliveries(policy: RoutePolicy): Delivery[] {
  const out: Delivery[] = [];
  // Strict wins over everything: no reasoning key at all, native records included.
  if (policy.tier === 'strict') return out;
  const row = `route ${policy.routeId}`;
  const wire = familyDescriptor(policy.family).reasoningOnWire;
  switch (wire.kind) {
    case 'message-keys': {
      for (const f of policy.fields)
        out.push({ carrier: f, turns: 'assistant-turns', messageKey: true, because: `${row} lists ${f}` });
      if (policy.tier === 'must-echo') {
        const rc = out.find((d) => d.carrier === 'reasoning_content');
        if (rc) rc.padded = true;
        else
          out.push({
            carrier: 'reasoning_content',
            turns: 'assistant-turns',
            messageKey: true,
            padded: true,
            padOnly: true,
            because: `${row} is must-echo but does not list reasoning_content, so tool-call turns get only the " " pad`,
          });
      }
      if (policy.native)
        for (const c of wire.nativeCarriers ?? [])
          out.push({ carrier: c, turns: 'assistant-turns', because: `${row} owns the ${policy.native} native record` });
      return out;
    }
    case 'blocks': {
      if (!policy.fields.includes('reasoning_details')) return out;
      if (!wire.replayPolicies) {
        out.push({
          carrier: wire.carrier,
          turns: 'assistant-turns',
          signed: true,
          because: `${row} lists reasoning_details`,
        });
        return out;
      }
      const p = policy.replayPolicy ?? 'signed';
      out.push({
        carrier: wire.carrier,
        turns: p === 'strip' ? 'current-loop' : 'assistant-turns',
        signed: p === 'signed',
        because: `${row} lists reasoning_details with replay policy ${p}`,
      });
      return out;
    }
    case 'native':
      if (policy.native)
        out.push({
          carrier: wire.carrier,
          turns: 'assistant-turns',
          signed: true,
          because: `${row} owns the ${policy.native} native record`,
        });
      return out;
  }
}

/** The route's id when it is the table's default (where the unknown-field fallback is the design). */
export function isDefaultRoute(route: RouteDefinition): boolean {
  return route.match.default === true;
}
