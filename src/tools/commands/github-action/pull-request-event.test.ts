import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../shared/errors/input-error.js';
import { readPullRequest } from './pull-request-event.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-event-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, payload: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return file;
};

describe('the pull request of a GitHub event payload', () => {
  it('a pull_request event names the repository, the number and the head commit', () => {
    const file = write('pr.json', {
      pull_request: { number: 12, head: { sha: 'abc' } },
      repository: { full_name: 'acme/agent' },
    });
    expect(readPullRequest(file)).toEqual({ owner: 'acme', repo: 'agent', number: 12, headSha: 'abc' });
  });

  it('a push has no pull request to comment on', () => {
    expect(readPullRequest(write('push.json', { ref: 'refs/heads/main', repository: { full_name: 'a/b' } }))).toBe(
      undefined,
    );
  });

  it('GITHUB_REPOSITORY stands in when the payload names no repository', () => {
    expect(readPullRequest(write('bare.json', { pull_request: { number: 3 } }), 'acme/other')).toEqual({
      owner: 'acme',
      repo: 'other',
      number: 3,
    });
  });

  it('a payload that is not JSON, or names no owner/name, is bad input', () => {
    expect(() => readPullRequest(write('bad.json', '{'))).toThrow(InputError);
    expect(() => readPullRequest(join(dir, 'missing.json'))).toThrow(/cannot be read/);
    expect(() => readPullRequest(write('noname.json', { pull_request: { number: 3 } }))).toThrow(
      /\/repository\/full_name: is not owner\/name/,
    );
  });
});
