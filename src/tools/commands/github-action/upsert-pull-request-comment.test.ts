import { afterEach, describe, expect, it } from 'vitest';
import { GithubApiError } from '../../../shared/errors/github-api-error.js';
import { startFakeGitHubApi, type FakeGitHubApi } from './fake-github-api.test-helper.js';
import { upsertPullRequestComment } from './upsert-pull-request-comment.js';

const TOKEN = 'ghs_unitTestTokenThatMustStayHidden000111';
const pullRequest = { owner: 'acme', repo: 'agent', number: 3 };
let api: FakeGitHubApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('upsertPullRequestComment', () => {
  it('posts when no comment has the marker, patches the one that has it, and leaves the others alone', async () => {
    api = await startFakeGitHubApi(TOKEN);
    api.comments.set('acme/agent#3', [
      { id: 1, body: 'a human, quoting <!-- other-marker -->', html_url: 'h1', user: { login: 'octocat' } },
    ]);
    const options = { apiUrl: api.url + '/', token: TOKEN, pullRequest, marker: '<!-- m -->' };
    expect(await upsertPullRequestComment({ ...options, body: '<!-- m -->\none' })).toMatchObject({
      action: 'created',
    });
    expect(await upsertPullRequestComment({ ...options, body: '<!-- m -->\ntwo' })).toMatchObject({
      action: 'updated',
    });
    expect(api.comments.get('acme/agent#3')!.map((c) => c.body)).toEqual([
      'a human, quoting <!-- other-marker -->',
      '<!-- m -->\ntwo',
    ]);
    expect(api.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
  });

  it('a read-only token (a fork’s pull request): one line with GitHub’s wording and the permission it needs', async () => {
    api = await startFakeGitHubApi(TOKEN, { readOnly: true });
    const attempt = upsertPullRequestComment({ apiUrl: api.url, token: TOKEN, pullRequest, marker: 'm', body: 'm' });
    await expect(attempt).rejects.toThrow(GithubApiError);
    await expect(attempt).rejects.toThrow(
      /^GitHub answered 403 to POST \/repos\/acme\/agent\/issues\/3\/comments: Resource not accessible by integration \(the token needs `pull-requests: write`; .*\)$/,
    );
  });

  it('an API that cannot be reached names the URL and the cause, and GitHub echoing the token is cut out', async () => {
    const closed = await startFakeGitHubApi(TOKEN);
    const url = closed.url;
    await closed.close();
    await expect(
      upsertPullRequestComment({ apiUrl: url, token: TOKEN, pullRequest, marker: 'm', body: 'm' }),
    ).rejects.toThrow(new RegExp(`^could not reach ${url} for GET /repos/acme/agent/issues/3/comments: ECONNREFUSED$`));
    const echoing = (async () =>
      new Response(JSON.stringify({ message: `token ${TOKEN} is revoked` }), { status: 401 })) as typeof fetch;
    const error = await upsertPullRequestComment({
      apiUrl: 'https://api.github.example',
      token: TOKEN,
      pullRequest,
      marker: 'm',
      body: 'm',
      fetch: echoing,
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('token *** is revoked');
    expect(error?.message).not.toContain(TOKEN);
  });
});
