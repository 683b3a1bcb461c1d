import { GithubApiError } from '../../../shared/errors/github-api-error.js';
import type { PullRequestRef } from './pull-request-event.js';

export interface UpsertOptions {
  /** GITHUB_API_URL: https://api.github.com, or a GitHub Enterprise Server's /api/v3. */
  apiUrl: string;
  token: string;
  pullRequest: PullRequestRef;
  /** The hidden marker a comment of ours carries; the first comment holding it is the one updated. */
  marker: string;
  body: string;
  fetch?: typeof fetch;
}

export interface UpsertResult {
  action: 'created' | 'updated';
  url?: string;
}

interface IssueComment {
  id: number;
  body?: string;
  html_url?: string;
}

const PER_PAGE = 100;
/** 100 pages of 100 comments: past that a pull request is not one this comment can be found in anyway. */
const MAX_PAGES = 100;

/**
 * One comment per pull request, updated on every push: the comments are listed (pull-request
 * comments are issue comments in the REST API), the one with the marker is PATCHed, or a new one is
 * POSTed when none has it. The token travels only in the Authorization header; an error names the
 * method, path, status and GitHub's own message, with the token cut out should any echo it.
 */
export async function upsertPullRequestComment(options: UpsertOptions): Promise<UpsertResult> {
  const call = caller(options);
  const { owner, repo, number } = options.pullRequest;
  const base = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  let found: IssueComment | undefined;
  for (let page = 1; page <= MAX_PAGES && !found; page++) {
    const comments = (await call('GET', `${base}/issues/${number}/comments?per_page=${PER_PAGE}&page=${page}`)) as
      IssueComment[] | undefined;
    if (!Array.isArray(comments)) break;
    found = comments.find((c) => typeof c.body === 'string' && c.body.includes(options.marker));
    if (comments.length < PER_PAGE) break;
  }
  if (found) {
    const updated = (await call('PATCH', `${base}/issues/comments/${found.id}`, { body: options.body })) as
      IssueComment | undefined;
    return { action: 'updated', ...(updated?.html_url ? { url: updated.html_url } : {}) };
  }
  const created = (await call('POST', `${base}/issues/${number}/comments`, { body: options.body })) as
    IssueComment | undefined;
  return { action: 'created', ...(created?.html_url ? { url: created.html_url } : {}) };
}

function caller(options: UpsertOptions) {
  const doFetch = options.fetch ?? fetch;
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const hide = (text: string) => (options.token ? text.split(options.token).join('***') : text);
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const where = `${method} ${path.replace(/\?.*$/, '')}`;
    let response: Response;
    try {
      response = await doFetch(apiUrl + path, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${options.token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'reasoning-replay-action',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (caught) {
      const cause = (caught as { cause?: { code?: string; message?: string } }).cause;
      throw new GithubApiError(
        hide(`could not reach ${apiUrl} for ${where}: ${cause?.code ?? cause?.message ?? String(caught)}`),
      );
    }
    const text = await response.text();
    if (!response.ok) {
      let message = '';
      try {
        const parsed = JSON.parse(text) as { message?: unknown };
        if (typeof parsed.message === 'string') message = parsed.message;
      } catch {
        message = text.slice(0, 200);
      }
      const hint =
        response.status === 401
          ? ' (the token was refused: check the github-token input)'
          : response.status === 403 || response.status === 404
            ? ' (the token needs `pull-requests: write`; pull requests from forks get a read-only token)'
            : '';
      throw new GithubApiError(
        hide(
          `GitHub answered ${response.status} to ${where}: ${message.replace(/\s+/g, ' ').trim() || response.statusText}${hint}`,
        ),
      );
    }
    if (!text) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new GithubApiError(`GitHub answered ${response.status} to ${where} with a body that is not JSON`);
    }
  };
}
