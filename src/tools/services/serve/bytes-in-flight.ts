/**
 * The request-body bytes serve holds at once, across every request. Each body was bounded alone
 * (MAX_BODY_BYTES), so concurrent large bodies grew the process by their sum: ten 20 MB bodies
 * added 342 MB (issue 27). A body is admitted only while the total stays within the bound; the
 * first body is always admitted when nothing else is in flight, so a bound below the per-body
 * limit never locks a large request out for good.
 */
/**
 * The default bound: one largest body (MAX_BODY_BYTES). Each body costs serve several times its
 * size while it is parsed and judged (ten concurrent 20 MB bodies peaked 442 MB above idle; with
 * this bound one is admitted at a time and the peak was 161 MB), and an agent's bodies are far
 * smaller: hundreds of them still fit at once.
 */
export const DEFAULT_MAX_BYTES_IN_FLIGHT = 32 * 1024 * 1024;

/** Seconds a refused client is told to wait (Retry-After): bodies in flight are read in well under that. */
export const RETRY_AFTER_SECONDS = 1;

export class BytesInFlight {
  private held = 0;

  constructor(readonly limit: number = DEFAULT_MAX_BYTES_IN_FLIGHT) {}

  get total(): number {
    return this.held;
  }

  /** Takes `bytes` when they fit (or when nothing is held); false, taking nothing, when they do not. */
  take(bytes: number): boolean {
    if (this.held > 0 && this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}
