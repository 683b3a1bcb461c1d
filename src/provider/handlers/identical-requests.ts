/**
 * What the mocks worked out for a request, kept for the next request that is the same bytes to the
 * same candidates in the same call: an SDK's retry, every agent of a `run` opening its session with
 * the same prompt, a load generator. The judge and the follow answer are functions of the rule set
 * (spec and model: the candidates and the body), the body, the call and the server's seed, so an
 * identical request cannot get another verdict or another answer. Only stateless answers are kept:
 * the caller skips the memo where an answer depends on what came before (injected faults).
 */
export class IdenticalRequests<T> {
  private readonly entries = new Map<string, T>();
  private readonly candidateIds = new WeakMap<object, number>();
  private nextId = 0;

  /**
   * @param maxEntries bound on entries kept (oldest dropped first)
   * @param maxBodyBytes larger bodies are never kept: a long history is rarely sent twice, and would pin its text
   */
  constructor(
    private readonly maxEntries = 256,
    private readonly maxBodyBytes = 32 * 1024,
  ) {}

  /**
   * The key of one request, or undefined when it is not kept. `candidates` is the list the server
   * resolved the path to, compared by identity (the server reuses one list per path): the same bytes
   * sent to another provider or another model in the path are another request.
   */
  keyOf(candidates: object, call: number, body: Uint8Array): string | undefined {
    if (body.byteLength > this.maxBodyBytes) return undefined;
    let id = this.candidateIds.get(candidates);
    if (id === undefined) this.candidateIds.set(candidates, (id = this.nextId++));
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
    return `${id}\u0000${call}\u0000${text}`;
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
