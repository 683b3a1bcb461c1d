import { readFileSync } from 'node:fs';
import { InputError } from '../../../shared/errors/input-error.js';

/** The pull request a workflow run is about, read from the event payload GitHub writes for the job. */
export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
  /** The head commit the run judged, named in the comment so a reader sees which push it is about. */
  headSha?: string;
}

/**
 * Reads `GITHUB_EVENT_PATH`: a `pull_request` / `pull_request_target` payload carries
 * `pull_request.number` and `repository.full_name`; any other event (a push, a schedule) has no
 * pull request to comment on, and gives undefined.
 */
export function readPullRequest(eventPath: string, repository?: string): PullRequestRef | undefined {
  let text: string;
  try {
    text = readFileSync(eventPath, 'utf8');
  } catch {
    throw new InputError(eventPath, '', 'cannot be read', 'GITHUB_EVENT_PATH names the event payload GitHub writes');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new InputError(eventPath, '', 'is not JSON', 'GITHUB_EVENT_PATH names the event payload GitHub writes');
  }
  const event = (payload ?? {}) as {
    pull_request?: { number?: unknown; head?: { sha?: unknown } };
    repository?: { full_name?: unknown };
  };
  const number = event.pull_request?.number;
  if (typeof number !== 'number' || !Number.isInteger(number) || number <= 0) return undefined;
  const fullName = typeof event.repository?.full_name === 'string' ? event.repository.full_name : repository;
  const [owner, repo, ...rest] = (fullName ?? '').split('/');
  if (!owner || !repo || rest.length > 0)
    throw new InputError(
      eventPath,
      '/repository/full_name',
      `is not owner/name (${JSON.stringify(fullName ?? null)})`,
      'GITHUB_REPOSITORY is used when the payload has none',
    );
  const headSha = event.pull_request?.head?.sha;
  return { owner, repo, number, ...(typeof headSha === 'string' ? { headSha } : {}) };
}
