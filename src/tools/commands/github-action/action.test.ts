import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../shared/project-root.js';
import { baseTable, git, makeGateRepo, writeTable } from '../gate/gate-repo.test-helper.js';
import { parseWorkflowCommand } from '../gate/workflow-command.test-helper.js';
import { readActionFile, runCompositeAction, type ActionRun } from './composite-action-runner.test-helper.js';
import { startFakeGitHubApi, type FakeGitHubApi } from './fake-github-api.test-helper.js';

/**
 * The GitHub Action as a pull request meets it: action.yml's own steps (read from the file) run in
 * a throwaway git repository with a pull-request event payload, against a fake GitHub API on
 * 127.0.0.1. The first push creates one comment, the next push updates it (PATCH, never a second
 * POST), the annotations are workflow commands the runner can read, and the planted token appears
 * nowhere but in the Authorization header. Uses the built CLI (`npm test` builds first).
 */
const root = projectRoot();
const action = readActionFile(join(root, 'action.yml'));
const TOKEN = 'ghs_plantedTokenForTheActionTest0123456789';
const PR = 7;
const dirs: string[] = [];
let api: FakeGitHubApi;

beforeAll(async () => {
  api = await startFakeGitHubApi(TOKEN);
});
afterAll(async () => {
  await api.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function makeRepo(): string {
  return makeGateRepo(temp('rr-action-repo-'));
}

function event(base: string, head: string) {
  return {
    action: 'synchronize',
    number: PR,
    pull_request: { number: PR, base: { sha: base, ref: 'main' }, head: { sha: head, ref: 'pr' } },
    repository: { full_name: 'acme/agent' },
  };
}

async function runAction(repo: string, payload: unknown, withValues: Record<string, string> = {}): Promise<ActionRun> {
  const runnerTemp = temp('rr-action-runner-');
  const eventPath = join(runnerTemp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(payload));
  const summary = join(runnerTemp, 'step-summary.md');
  writeFileSync(summary, '');
  return runCompositeAction(action, {
    actionPath: root,
    workspace: repo,
    with: withValues,
    github: { token: TOKEN, event: payload },
    artifactsDir: temp('rr-action-artifacts-'),
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? runnerTemp,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_API_URL: api.url,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'acme/agent',
      GITHUB_RUN_ID: '4242',
      GITHUB_WORKSPACE: repo,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: runnerTemp,
    },
  });
}

const methods = () => api.requests.map((r) => `${r.method} ${r.url.replace(/\?.*$/, '')}`);
const count = (method: string) => api.requests.filter((r) => r.method === method).length;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)],
  );
}

/** The token may travel only as the Authorization header: not in output, a URL, another header, a body or a file. */
function expectNoToken(runs: ActionRun[]): void {
  for (const run of runs) {
    expect(run.stdout).not.toContain(TOKEN);
    expect(run.stderr).not.toContain(TOKEN);
    for (const dir of run.artifacts.values())
      for (const file of filesUnder(dir)) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
  }
  for (const r of api.requests) {
    expect(JSON.stringify({ ...r, authorization: undefined })).not.toContain(TOKEN);
    expect(r.authorization).toBe(`Bearer ${TOKEN}`);
  }
}

describe('action.yml, run as GitHub runs it against a fake GitHub API', () => {
  it('gate mode: one comment on the first push, the same comment updated on the next; annotations; the HTML artifact', async () => {
    const repo = makeRepo();
    const base = git(repo, 'rev-parse', 'HEAD');
    git(repo, 'checkout', '-q', '-b', 'pr');
    const table = baseTable();
    table.routes.find((r) => r.id === 'mistral')!.fields.push('reasoning_details');
    writeTable(repo, table);
    git(repo, 'commit', '-q', '-am', 'routes: mistral receives reasoning_details');
    const head1 = git(repo, 'rev-parse', 'HEAD');
    // A long conversation already: our comment lands on the second page of the listing.
    api.comments.set(
      `acme/agent#${PR}`,
      Array.from({ length: 120 }, (_, i) => ({
        id: i + 1,
        body: i === 3 ? 'reasoning-replay will comment here' : `review note ${i}`,
        html_url: `https://github.example/acme/agent/pull/${PR}#issuecomment-${i + 1}`,
        user: { login: 'octocat' },
      })),
    );
    api.requests.length = 0;

    const first = await runAction(repo, event(base, head1));
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(first.outputs['exit-code']).toBe('1');
    expect(first.steps.find((s) => s.step.uses?.startsWith('actions/setup-node'))!.ran).toBe(false);
    expect(count('POST')).toBe(1);
    expect(count('PATCH')).toBe(0);
    const comments = api.comments.get(`acme/agent#${PR}`)!;
    expect(comments).toHaveLength(121);
    const ours = comments.at(-1)!;
    expect(ours.body.startsWith('<!-- reasoning-replay-action:gate -->\n')).toBe(true);
    expect(ours.body).toContain('✗ the route-table change breaks a provider rule');
    expect(ours.body).toContain('- route mistral now receives reasoning_details');
    expect(ours.body).toMatch(/^\| `mistral` \|/m);
    expect(ours.body).toContain(
      '[HTML report (artifact `reasoning-replay-report`)](https://github.example/artifacts/reasoning-replay-report)',
    );
    expect(ours.body).toContain('[workflow run](https://github.example/acme/agent/actions/runs/4242)');
    expect(ours.body).toContain(head1.slice(0, 12));
    expect(first.stdout).toContain(`created the comment on acme/agent#${PR}`);

    // Annotations: every workflow command printed reads back; the error sits on the line that caused it.
    const source = readFileSync(join(repo, 'specs', 'routes.json'), 'utf8').split('\n');
    const commands = first.stdout
      .split('\n')
      .filter((l) => l.startsWith('::'))
      .map((l) => ({ line: l, parsed: parseWorkflowCommand(l) }));
    const errors = commands.filter((c) => c.parsed?.command === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const { line, parsed } of commands) {
      expect(parsed, line).toBeDefined();
      expect(['error', 'warning', 'notice'], line).toContain(parsed!.command);
      if (parsed!.properties.file === undefined) continue;
      expect(parsed!.properties.file).toBe('specs/routes.json');
      expect(Number(parsed!.properties.line)).toBeGreaterThan(0);
      expect(Number(parsed!.properties.line)).toBeLessThanOrEqual(source.length);
    }
    const mistral = errors.find((c) => c.parsed!.properties.title === 'reasoning-replay: route mistral')!;
    expect(source[Number(mistral.parsed!.properties.line) - 1]).toContain('"reasoning_details"');

    // The artifact: the gate's report, the HTML among it.
    const artifact = first.artifacts.get('reasoning-replay-report')!;
    expect(readdirSync(artifact).sort()).toEqual(
      ['compatibility.html', 'compatibility.json', 'compatibility.md', 'gate.md', 'junit.xml'].sort(),
    );
    expect(readFileSync(join(artifact, 'compatibility.html'), 'utf8')).toMatch(/^<!doctype html>/i);

    // The next push fixes the table: the same comment is updated, not a second one posted.
    writeTable(repo, baseTable());
    git(repo, 'commit', '-q', '-am', 'routes: back to the base');
    const head2 = git(repo, 'rev-parse', 'HEAD');
    const second = await runAction(repo, event(base, head2));
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(count('POST')).toBe(1);
    expect(count('PATCH')).toBe(1);
    expect(methods().at(-1)).toBe(`PATCH /repos/acme/agent/issues/comments/${ours.id}`);
    expect(api.comments.get(`acme/agent#${PR}`)).toHaveLength(121);
    expect(ours.body).toContain('✓ the route table conforms on every route it can affect');
    expect(ours.body).toContain(head2.slice(0, 12));
    expect(ours.body).not.toContain(head1.slice(0, 12));
    expect(second.stdout).toContain(`updated the comment on acme/agent#${PR}`);
    expect(second.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([]);

    expectNoToken([first, second]);
  });

  it('agent mode: run -- <command>, its own comment beside the gate’s, and the exit code of the run', async () => {
    const repo = makeRepo();
    const head = git(repo, 'rev-parse', 'HEAD');
    api.comments.set(`acme/agent#${PR}`, []);
    api.requests.length = 0;
    const agent = join(root, 'examples', 'agents', 'python-agent.py');
    const run = await runAction(repo, event(head, head), {
      command: `python3 "${agent}" --drop-reasoning`,
      args: '--provider deepseek',
    });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(count('POST')).toBe(1);
    const [comment] = api.comments.get(`acme/agent#${PR}`)!;
    expect(comment!.body.startsWith('<!-- reasoning-replay-action:agent -->\n')).toBe(true);
    expect(comment!.body).toContain('✗ the agent broke a provider rule');
    expect(comment!.body).toContain('must-echo');
    expect(readdirSync(run.artifacts.get('reasoning-replay-report')!)).toContain('client-report.md');
    expectNoToken([run]);
  });
});

describe('pr-comment when GitHub refuses the token', () => {
  it('prints one line naming the call and the status, never the token, and exits 1', async () => {
    const eventPath = join(temp('rr-action-401-'), 'event.json');
    writeFileSync(eventPath, JSON.stringify(event('a'.repeat(40), 'b'.repeat(40))));
    const wrong = 'ghp_wrongTokenThatMustNotBePrinted987654321';
    api.requests.length = 0;
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(
        process.execPath,
        [join(root, 'bin', 'reasoning-replay.js'), 'pr-comment', '--mode', 'gate', '--exit-code', '0'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            GITHUB_TOKEN: wrong,
            GITHUB_EVENT_PATH: eventPath,
            GITHUB_API_URL: api.url,
          },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `reasoning-replay pr-comment: GitHub answered 401 to GET /repos/acme/agent/issues/${PR}/comments: Bad credentials (the token was refused: check the github-token input)\n`,
    );
    expect(api.requests.map((r) => r.authorization)).toEqual([`Bearer ${wrong}`]);
    for (const r of api.requests) expect(JSON.stringify({ ...r, authorization: undefined })).not.toContain(wrong);
  });
});
