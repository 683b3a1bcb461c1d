/** One server-sent event as it crossed the wire, with its arrival time relative to the first byte. */
export interface SseEvent {
  event?: string;
  id?: string;
  data: string;
  atMs?: number;
}
