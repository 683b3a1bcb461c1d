/**
 * What a mock did to one answer, so the judge can tell the damage in the agent's later requests: the protocol
 * between the provider side (which injects) and the judge (which reads the next requests).
 */
export interface InjectedFault {
  /** The fault's name in specs/faults.json. */
  name: string;
  /**
   * Values the agent received from an answer that never finished and must not send back, each with what it is: a
   * signature cut short, a signature whose block never reached its stop, reasoning text cut short. One that a later,
   * finished answer issues whole (a resent request answered again) is no longer damage.
   */
  unfinished: Array<{ value: string; what: 'truncated-signature' | 'unfinished-signature' | 'partial-thinking' }>;
  /** Signatures minted by another upstream than the one the next requests reach. */
  foreign: string[];
  /** How long the answer asked the agent to wait (Retry-After), in ms. */
  retryAfterMs?: number;
  /** Signatures of replayed thinking blocks the answer reported the provider dropped (input_transformations). */
  dropped?: string[];
  /** The model a fallback answered as. */
  model?: string;
  /** Where the answer was cut, in words (for the report). */
  where?: string;
}

/** The carriers a finished answer issued: what every later request that replays its turn must still carry. */
export interface IssuedCarriers {
  signatures: string[];
  callIds: string[];
  texts: string[];
}

/** One request the judge of faults reads, with what its answer was. */
export interface FaultExchange {
  /** The request's number in its serve log. */
  seq: number;
  /** When it arrived, in ms since the epoch. */
  atMs: number;
  /** Requests of one session (one client of one provider) are judged together. */
  session: string;
  provider: string;
  status: number;
  body: unknown;
  /** The fault injected into this request's answer, if any. */
  fault?: InjectedFault;
  /** What this request's answer issued, when it finished (2xx, not faulted). */
  issued?: IssuedCarriers;
}
