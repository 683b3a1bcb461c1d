import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../../../shared/errors/input-error.js';
import { GithubApiError } from '../../../shared/errors/github-api-error.js';
import { commentBody, commentMarker, type ActionMode } from '../../commands/github-action/comment-body.js';
import { readPullRequest } from '../../commands/github-action/pull-request-event.js';
import { upsertPullRequestComment } from '../../commands/github-action/upsert-pull-request-comment.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';

/**
 * The GitHub Action's comment step (action.yml), a command of the CLI rather than a script of its
 * own so it shares the built dist/, the one-line errors and exit codes, and `--help`.
 */
export const prCommentCommand = defineCommand({
  command: 'pr-comment',
  describe:
    'GitHub Actions: post the report as one pull-request comment, updated on later pushes (the GitHub Action runs this)',
  builder: (y) =>
    y
      .option('mode', {
        choices: ['gate', 'agent'] as const,
        demandOption: true,
        describe: 'which run the report is from: check --base (gate) or run -- <command> (agent)',
      })
      .option('exit-code', {
        type: 'number',
        demandOption: true,
        describe: 'the exit code of that run: the comment’s headline says what it means',
      })
      .option('markdown', {
        type: 'string',
        describe: 'the Markdown report to post (a missing file says no report was written)',
      })
      .option('artifact-url', { type: 'string', describe: 'where the HTML report was uploaded (linked)' })
      .option('artifact-name', { type: 'string', describe: 'the artifact’s name, shown with the link' })
      .option('key', {
        type: 'string',
        describe: 'tells this comment apart from another job’s in the same pull request (default: the mode)',
      })
      .epilog(
        'Reads GITHUB_TOKEN (never printed; the token needs pull-requests: write), GITHUB_EVENT_PATH (the pull request),\n' +
          'GITHUB_API_URL (default https://api.github.com), GITHUB_REPOSITORY, GITHUB_SERVER_URL and GITHUB_RUN_ID (the run link).\n' +
          'Outside a pull-request event it posts nothing and exits 0.\n' +
          'Exit codes: 0 posted (or nothing to post), 1 GitHub refused or could not be reached (one line), 2 bad input.',
      ),
  async run(args) {
    const env = process.env;
    if (!Number.isInteger(args['exit-code']))
      throw new InputError('--exit-code', '', `"${args['exit-code']}" is not an exit code`, 'e.g. --exit-code 1');
    if (!env.GITHUB_EVENT_PATH)
      throw new InputError('GITHUB_EVENT_PATH', '', 'is not set', 'this command runs in a GitHub Actions job');
    const pullRequest = readPullRequest(env.GITHUB_EVENT_PATH, env.GITHUB_REPOSITORY);
    if (!pullRequest) {
      process.stdout.write('reasoning-replay pr-comment: not a pull-request event, no comment posted\n');
      return EXIT_OK;
    }
    const token = env.GITHUB_TOKEN;
    if (!token)
      throw new InputError(
        'GITHUB_TOKEN',
        '',
        'is not set',
        'the action passes its github-token input (default: github.token)',
      );
    const mode: ActionMode = args.mode;
    const markdown = args.markdown && existsSync(args.markdown) ? readFileSync(args.markdown, 'utf8') : undefined;
    const runUrl =
      env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
        ? `${(env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
        : undefined;
    const body = commentBody({
      mode,
      exitCode: args['exit-code'],
      ...(args.key ? { key: args.key } : {}),
      ...(markdown !== undefined ? { markdown } : {}),
      ...(args['artifact-url'] ? { artifactUrl: args['artifact-url'] } : {}),
      ...(args['artifact-name'] ? { artifactName: args['artifact-name'] } : {}),
      ...(runUrl ? { runUrl } : {}),
      ...(pullRequest.headSha ? { headSha: pullRequest.headSha } : {}),
    });
    try {
      const result = await upsertPullRequestComment({
        apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
        token,
        pullRequest,
        marker: commentMarker(mode, args.key),
        body,
      });
      process.stdout.write(
        `reasoning-replay pr-comment: ${result.action} the comment on ${pullRequest.owner}/${pullRequest.repo}#${pullRequest.number}${result.url ? ` (${result.url})` : ''}\n`,
      );
      return EXIT_OK;
    } catch (caught) {
      if (!(caught instanceof GithubApiError)) throw caught;
      process.stderr.write(`reasoning-replay pr-comment: ${caught.message}\n`);
      return EXIT_VIOLATION;
    }
  },
});
