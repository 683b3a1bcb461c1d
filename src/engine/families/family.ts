import type { Carriers } from '../history/carriers.js';
import type { History, Message } from '../../shared/history/history.js';
import type { FamilyId, RoutePolicy } from '../../shared/route-table/route-table.js';
import type { StreamCarriers } from './stream-carriers.js';

export type { OutboundRequest, RequestOptions } from '../../shared/wire/outbound-request.js';
import type { OutboundRequest, RequestOptions } from '../../shared/wire/outbound-request.js';

/** What a family made of one provider answer: the assistant message to append to history. */
export interface ParsedAnswer {
  message: Message;
  carriers: Carriers;
  finishReason: string | null;
  /**
   * Well-formed parts of the answer that were skipped rather than kept (each says what and why).
   * Only present when something was skipped; never a reason to fail the read.
   */
  notes?: string[];
}

export interface Family {
  id: FamilyId;
  toRequest(history: History, policy: RoutePolicy, options?: RequestOptions): OutboundRequest;
  /** `policy` tells families with a native record which route key to file it under. */
  fromResponse(body: unknown, policy?: RoutePolicy): ParsedAnswer;
  /** A fresh accumulator for one streamed answer; `end()` gives what fromResponse gives unstreamed. */
  streamCarriers?(policy?: RoutePolicy): StreamCarriers;
}
