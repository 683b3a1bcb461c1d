import { DeadlineExceededError } from '../../../shared/errors/deadline-exceeded-error.js';
import { fetchWithDeadline } from '../../services/recorder/deadline-fetch.js';
import { redactHeaders, redactSecretValues, redactText, type SecretValue } from '../../services/recorder/redact.js';
import { RunStoppedError } from '../../../shared/errors/run-stopped-error.js';
import type { SpendGuard } from './spend-guard.js';

/** What one live request brought back. */
export type LiveAnswer =
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: unknown; text: string }
  /** No whole answer: the deadline passed, or the connection broke. */
  | { kind: 'failed'; reason: 'deadline' | 'connection'; message: string };

export interface LiveRequest {
  /** Who is asked, for messages: the provider spec id. */
  provider: string;
  /** The key variable, named when the provider refuses the key. */
  keyEnv?: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** USD this request is estimated to cost (checked against the cap before it is sent). */
  cost: number;
  /** Prices the answer's reported usage, when it reports one. */
  reportedCost: (answerBody: unknown) => number | undefined;
}

const REFUSALS: Record<number, string> = {
  401: 'refused the key (401)',
  403: 'refused access (403)',
  429: 'is rate-limiting this key (429)',
};

/**
 * The one place `verify` sends anything. Each request passes the spend guard first (a cap is never
 * passed), runs under a deadline that covers its whole body, and is never redirected (a provider
 * API does not redirect; following one could carry the key elsewhere). A 401, 403 or 429 stops
 * the run: every later request would meet the same answer and spend the user's quota for nothing.
 */
export class LiveClient {
  constructor(
    private readonly guard: SpendGuard,
    private readonly timeoutMs: number,
    private readonly secrets: readonly SecretValue[],
    private readonly fetchFor: (provider: string) => typeof fetch,
  ) {}

  async send(request: LiveRequest): Promise<LiveAnswer> {
    this.guard.admit(request.cost);
    const deadline = Math.max(1, Math.min(this.timeoutMs, this.guard.timeLeft()));
    const send = fetchWithDeadline(deadline, this.fetchFor(request.provider));
    let answer: LiveAnswer;
    try {
      const response = await send(request.url, {
        method: 'POST',
        headers: request.headers,
        body: JSON.stringify(request.body),
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => (headers[k] = v));
      const raw = await response.text();
      // Redacted as it arrives: every later use (a printed line cut short, a case's wording, the
      // next turn's request) starts from text that holds no known key in any spelling.
      const text = redactText(raw, this.secrets);
      let body: unknown = text;
      try {
        body = redactSecretValues(JSON.parse(raw), this.secrets);
      } catch {
        // a text or stream body stays text
      }
      answer = {
        kind: 'answer',
        status: response.status,
        headers: redactSecretValues(redactHeaders(headers), this.secrets),
        body,
        text,
      };
    } catch (error) {
      const deadlineHit = error instanceof DeadlineExceededError;
      const cause =
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      answer = {
        kind: 'failed',
        reason: deadlineHit ? 'deadline' : 'connection',
        message: redactText(
          deadlineHit
            ? `no complete answer within ${deadline} ms (--timeout)`
            : `the connection failed before a whole answer: ${cause}`,
          this.secrets,
        ),
      };
    }
    this.guard.settle(request.cost, answer.kind === 'answer' ? request.reportedCost(answer.body) : undefined);
    if (answer.kind === 'answer' && REFUSALS[answer.status]) {
      const what =
        answer.status === 429
          ? ' Wait for the limit to reset, or lower --max-requests.'
          : request.keyEnv
            ? ` Check ${request.keyEnv}.`
            : '';
      throw new RunStoppedError(
        redactText(
          `${request.provider} ${REFUSALS[answer.status]}: "${answer.text.replace(/\s+/g, ' ').slice(0, 200)}". The run stopped after ${this.guard.sent} request(s); nothing more was sent.${what}`,
          this.secrets,
        ),
        'refused',
      );
    }
    return answer;
  }
}
