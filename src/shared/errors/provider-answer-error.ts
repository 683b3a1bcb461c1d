import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A piece of a provider's answer that cannot be read as its wire documents it: a stream event, an
 * output item, a part, an event-stream frame, or an error the provider sent mid-stream. It holds
 * only the problem; the reader that catches it (StreamCarriers, fromResponse) says where.
 */
export class ProviderAnswerError extends ReasoningReplayError {
  readonly kind = 'external';
}
