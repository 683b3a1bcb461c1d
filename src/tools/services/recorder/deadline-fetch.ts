import { DeadlineExceededError } from '../../../shared/errors/deadline-exceeded-error.js';
/**
 * A fetch with a deadline per call that covers the whole exchange, body included: a server that
 * accepts the connection and never answers, or stalls mid-stream, ends the call with
 * DeadlineExceededError instead of holding `record` or `probe` forever.
 */
export function fetchWithDeadline(ms: number, inner: typeof fetch = (i, n) => globalThis.fetch(i, n)): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const expired = new DeadlineExceededError(ms);
    const timer = setTimeout(() => controller.abort(expired), ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    const reason = (error: unknown) => (controller.signal.aborted ? expired : error);
    let response: Response;
    try {
      response = await inner(input, { ...init, signal });
    } catch (error) {
      clearTimeout(timer);
      throw reason(error);
    }
    if (response.body === null) {
      clearTimeout(timer);
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      pull: async (c) => {
        try {
          const next = await reader.read();
          if (next.done) {
            clearTimeout(timer);
            c.close();
          } else c.enqueue(next.value);
        } catch (error) {
          clearTimeout(timer);
          c.error(reason(error));
        }
      },
      cancel: async (why) => {
        clearTimeout(timer);
        await reader.cancel(why);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
