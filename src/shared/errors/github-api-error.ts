import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * GitHub's REST API refused or could not be reached (the pull-request comment of the GitHub Action).
 * The message is one line: method, path, status and GitHub's own `message`; never the token. Exit 1.
 */
export class GithubApiError extends ReasoningReplayError {
  readonly kind = 'external';
}
