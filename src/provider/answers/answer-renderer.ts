import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';

export interface RenderContext {
  spec: ProviderSpec;
  /** 0-based index of the call within the scenario; used for stable ids. */
  call: number;
  /** Seeds ids and signatures with `call`: a scenario id, or follow mode's per-conversation name (fresh per turn). */
  scenario: string;
  /**
   * The model the client asked for (default: the spec's target): a gateway answers as the upstream serving it
   * does, and every answer names it.
   */
  model?: string;
  /** The client's request body, when the answer follows a live client (Responses `store` and `include`). */
  request?: Readonly<Record<string, unknown>>;
}

/** A scripted answer in one provider's wire shape, both unstreamed and as the SSE events of a stream. */
export interface RenderedAnswer {
  body: unknown;
  stream: SseEvent[];
}

/**
 * Each family renders answers the way its providers write them. The fixture synthesizer renders scripted answers
 * into fixture files; serve's follow mode renders the answer to a live client's own request.
 */
export type AnswerRenderer = (answer: ScriptedAnswer, context: RenderContext) => RenderedAnswer;
