import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, commentBody, commentMarker } from './comment-body.js';

describe('the pull-request comment body', () => {
  it('opens with the marker, says what the exit code means, and links the artifact and the run', () => {
    const body = commentBody({
      mode: 'agent',
      exitCode: 3,
      markdown: '## report\n',
      artifactUrl: 'https://github.example/a/1',
      artifactName: 'rr',
      runUrl: 'https://github.example/run/1',
      headSha: '0123456789abcdef0123',
    });
    expect(
      body.startsWith(`${commentMarker('agent')}\n## reasoning-replay: agent run\n\n✗ the agent failed (exit 3)`),
    ).toBe(true);
    expect(body).toContain('## report\n\n**Full report:** [HTML report (artifact `rr`)](https://github.example/a/1)');
    expect(body).toContain('· [workflow run](https://github.example/run/1)');
    expect(body).toContain('this run judged 0123456789ab.');
  });

  it('a run that wrote no report says so; an exit code it does not know is named', () => {
    const body = commentBody({ mode: 'gate', exitCode: 70 });
    expect(body).toContain('✗ reasoning-replay exited 70');
    expect(body).toContain('_No report was written; the job log says why._');
  });

  it('a key tells two comments apart, and cannot close the HTML comment early', () => {
    expect(commentMarker('gate', 'deepseek')).toBe('<!-- reasoning-replay-action:deepseek -->');
    expect(commentMarker('gate', 'a-->b')).toBe('<!-- reasoning-replay-action:a--b -->');
    expect(commentMarker('gate')).not.toBe(commentMarker('agent'));
  });

  it('never passes GitHub’s 65,536 characters, and keeps the marker and the links when it cuts', () => {
    const make = (markdown: string) =>
      commentBody({ mode: 'gate', exitCode: 1, markdown, artifactUrl: 'https://github.example/a/1' });
    const frame = make('').length;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), (size) => {
        const body = make('x'.repeat(size));
        expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
        expect(body.startsWith(commentMarker('gate'))).toBe(true);
        expect(body).toContain('(https://github.example/a/1)');
        expect(body.includes('cut to fit a GitHub comment')).toBe(frame + size > COMMENT_LIMIT);
      }),
      { numRuns: 50, examples: [[COMMENT_LIMIT - frame], [COMMENT_LIMIT - frame + 1]] },
    );
  });
});
