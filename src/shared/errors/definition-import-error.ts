import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A provider's API definition that specs:import cannot read as its pin in specs/definitions.json
 * says (another format, a missing type or operation, an overlay that no longer fits). Exit 2.
 */
export class DefinitionImportError extends ReasoningReplayError {
  readonly kind = 'input';
}
