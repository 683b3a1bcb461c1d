import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';

export interface RenderContext {
  spec: ProviderSpec;
  /** 0-based index of the call within the scenario; used for stable ids. */
  call: number;
  scenario: string;
}

/** A scripted answer in one provider's wire shape, both unstreamed and as the SSE events of a stream. */
export interface RenderedAnswer {
  body: unknown;
  stream: SseEvent[];
}

/**
 * Each family renders answers the way its providers write them. Only the fixture synthesizer uses
 * this: the mocks answer from fixture files, so a recorded fixture replaces a rendered one cleanly.
 */
export type AnswerRenderer = (answer: ScriptedAnswer, context: RenderContext) => RenderedAnswer;
