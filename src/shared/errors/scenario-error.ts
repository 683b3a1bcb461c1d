import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A scenario's script holds something the mocks cannot answer with (scripted tool arguments that are not a JSON object). */
export class ScenarioError extends ReasoningReplayError {
  readonly kind = 'input';
}
