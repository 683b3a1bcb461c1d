/**
 * What the mocks worked out for a request, kept for the next request that is the same bytes to the
 * same candidates in the same call: an SDK's retry, every agent of a `run` opening its session with
 * the same prompt, a load generator. The judge and the follow answer are functions of the rule set
 * (spec and model: the candidates and the body), the body, the call and the server's seed, so an
 * identical request cannot get another verdict or another answer. Only stateless answers are kept:
 * the caller skips the memo where an answer depends on what came before (injected faults).
 */
export class IdenticalRequests<T> {
  /** By the body's bytes (as a latin1 string), then by candidate list and call. */
  private readonly entries = new Map<string, Map<string, T>>();
  /** Verdicts kept, across all bodies. */
  private kept = 0;
  private readonly candidateIds = new WeakMap<object, number>();
  private nextId = 0;

  /**
   * @param maxEntries bound on verdicts kept, across all bodies (the oldest body's dropped first)
   * @param maxBodyBytes larger bodies are never kept: a long history is rarely sent twice, and would pin its text
   * @param maxPerBody bound on candidate lists and calls kept per body (oldest dropped first)
   */
  constructor(
    private readonly maxEntries = 256,
    private readonly maxBodyBytes = 32 * 1024,
    private readonly maxPerBody = 16,
  ) {}

  /**
   * The key of one request, or undefined when it is not kept. `candidates` is the list the server
   * resolved the path to, compared by identity (the server reuses one list per path): the same bytes
   * sent to another provider or another model in the path are another request. `bodyText` is the
   * body as a latin1 string when the caller already made it (serve keys its parsed bodies by it): the
   * same string object hashes once, so a hit costs no copy of the body.
   */
  keyOf(candidates: object, call: number, body: Uint8Array, bodyText?: string): RequestKey | undefined {
    if (body.byteLength > this.maxBodyBytes) return undefined;
    let id = this.candidateIds.get(candidates);
    if (id === undefined) this.candidateIds.set(candidates, (id = this.nextId++));
    const text = bodyText ?? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
    return { body: text, target: `${id}\u0000${call}` };
  }

  get(key: RequestKey): T | undefined {
    return this.entries.get(key.body)?.get(key.target);
  }

  set(key: RequestKey, value: T): void {
    let byTarget = this.entries.get(key.body);
    if (byTarget?.has(key.target)) return void byTarget.set(key.target, value);
    // At the bound, the oldest body goes with all it kept; a body's own oldest goes at its bound.
    while (this.kept >= this.maxEntries && this.entries.size > 0) {
      const [oldest, itsTargets] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.kept -= itsTargets.size;
    }
    if (!byTarget || !this.entries.has(key.body)) this.entries.set(key.body, (byTarget = new Map()));
    if (byTarget.size >= this.maxPerBody) {
      byTarget.delete(byTarget.keys().next().value!);
      this.kept--;
    }
    byTarget.set(key.target, value);
    this.kept++;
  }
}

/** One request's key: its body's bytes, and the candidate list and call it was sent to. */
export interface RequestKey {
  body: string;
  target: string;
}
