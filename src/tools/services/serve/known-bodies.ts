import { wireCarrierKeys } from '../../../judge/conformance/wire-carriers.js';
import { assistantTurns } from '../../../provider/handlers/answer-http-request.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { couldNestDeeperThan } from './body-depth-bound.js';
import { bodyDepthRefusal, MAX_BODY_DEPTH, type Refusal } from './request-limits.js';
import { sendsBackReasoning } from './sends-back-reasoning.js';

/** What serve reads off a request body, before any mock sees it: all of it a function of the body's bytes. */
export interface BodyFacts {
  /**
   * The bytes as a latin1 string, when the body is small enough to be kept: the key here and of the mocks' kept
   * verdicts (src/provider/handlers/identical-requests.ts), so the string is made and hashed once per request.
   */
  text: string | undefined;
  /** The body parsed, undefined when it is not JSON or is refused as too deep; frozen when it is kept. */
  json: unknown;
  /** The body nests deeper than serve reads (request-limits.ts). */
  depthRefusal: Refusal | undefined;
  /** The assistant turns the body holds: the call number when no header names one. */
  assistantTurns: number;
  /** The reasoning carriers the body holds (the log's `sentFields`); copy before handing it on. */
  sentFields: readonly string[];
  /** The body sends back reasoning an earlier answer issued (sends-back-reasoning.ts). */
  replays: boolean;
}

/**
 * The facts of the bodies seen last, by their bytes: a client that sends the same body again (a retry, agents that open
 * alike, a load generator) is not parsed and walked again. Each fact is a function of the bytes alone, so a kept one
 * cannot differ from what the body would give afresh. Facts are kept from a body's second sight on; the kept parsed
 * body is shared by every later request that sends those bytes, so it is frozen: code that wrote to a request's body
 * would throw instead of changing a later request's.
 */
export class KnownBodies {
  /** By the body's bytes: its facts, or undefined for a body seen once so far. */
  private readonly kept = new Map<string, BodyFacts | undefined>();

  /**
   * @param maxEntries bound on bodies kept (oldest dropped first)
   * @param maxBodyBytes larger bodies are never kept: a long history is rarely sent twice, and would pin its text
   */
  constructor(
    private readonly maxEntries = 256,
    private readonly maxBodyBytes = 32 * 1024,
  ) {}

  /**
   * The kept body read last, by its bytes (a copy): the same body again (a retry, a load generator's connections,
   * agents that open alike) is told by comparing bytes, without making its latin1 text and hashing it (about 2 µs of a
   * kept request's 60). Always one of the kept bodies: it goes when that body does.
   */
  private last: { bytes: Buffer; facts: BodyFacts } | undefined;

  read(body: Buffer): BodyFacts {
    if (body.length > this.maxBodyBytes) return factsOf(body, undefined, false);
    if (this.last?.bytes.equals(body)) return this.last.facts;
    const text = body.toString('latin1');
    const known = this.kept.get(text);
    if (known) {
      this.last = { bytes: Buffer.from(body), facts: known };
      return known;
    }
    // Seen once before: kept from now on. A body seen for the first time is only noted: most bodies of an agent's
    // loop are sent once (its history grows each call), and keeping and freezing each would cost more than it saves.
    const again = this.kept.has(text);
    const facts = factsOf(body, text, again);
    if (again) this.kept.set(text, facts);
    else {
      if (this.kept.size >= this.maxEntries) {
        const oldest = this.kept.keys().next().value!;
        this.kept.delete(oldest);
        if (this.last?.facts.text === oldest) this.last = undefined;
      }
      this.kept.set(text, undefined);
    }
    return facts;
  }
}

function factsOf(body: Buffer, text: string | undefined, kept: boolean): BodyFacts {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  // The depth walk only where the raw bytes hold enough brackets to be that deep (body-depth-bound.ts).
  const depthRefusal = couldNestDeeperThan(body, MAX_BODY_DEPTH) ? bodyDepthRefusal(json) : undefined;
  // A body too deep is not read further: the walks below recurse.
  if (depthRefusal) return { text, json: undefined, depthRefusal, assistantTurns: 0, sentFields: [], replays: false };
  return {
    text,
    json: kept ? deepFreeze(json) : json,
    depthRefusal,
    assistantTurns: assistantTurns(json),
    sentFields: wireCarrierKeys(json),
    replays: sendsBackReasoning(json),
  };
}
