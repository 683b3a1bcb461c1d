import type { History } from '../../shared/history/history.js';
import type { ParsedAnswer } from './parsed-answer.js';
import type { FamilyId, RoutePolicy } from '../../shared/route-table/route-table.js';
import type { StreamCarriers } from './stream-carriers.js';

export type { OutboundRequest, RequestOptions } from '../../shared/wire/outbound-request.js';
export type { ParsedAnswer } from './parsed-answer.js';
import type { OutboundRequest, RequestOptions } from '../../shared/wire/outbound-request.js';

export interface Family {
  id: FamilyId;
  toRequest(history: History, policy: RoutePolicy, options?: RequestOptions): OutboundRequest;
  /** `policy` tells families with a native record which route key to file it under. */
  fromResponse(body: unknown, policy?: RoutePolicy): ParsedAnswer;
  /** A fresh accumulator for one streamed answer; `end()` gives what fromResponse gives unstreamed. */
  streamCarriers?(policy?: RoutePolicy): StreamCarriers;
}
