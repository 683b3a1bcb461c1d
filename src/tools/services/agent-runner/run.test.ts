import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';
import { projectRoot } from '../../../shared/project-root.js';
import { ensureMatrixPackages } from '../../../shared/matrix-packages/matrix-packages.js';

/**
 * `run` judged from outside, through the CLI's entry point, on agents that are not ours: a Python agent
 * (standard library only) run once, broken once, and once per turn; a Node agent over the JSON-lines
 * protocol; and an agent that crashes. main() runs in this process (as bin/ calls it) and each agent is its own
 * process, as under `run -- <command>`: what is tested is what run prints, writes and exits with.
 */
const work = mkdtempSync(join(tmpdir(), 'rr-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const agent = (name: string) => join(projectRoot(), 'examples', 'agents', name);

describe('reasoning-replay run', () => {
  it('a conforming Python agent exits 0, with a testcase per request and the report about it', async () => {
    const out = join(work, 'ok');
    const r = await runCliInProcess(
      [
        'run',
        '--provider',
        'deepseek',
        '--provider',
        'mistral',
        '--out',
        out,
        '--',
        'python3',
        agent('python-agent.py'),
      ],
      { cwd: work },
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ the agent conformed: 4 requests over 1 session/);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(4);
    expect(junit).not.toContain('<failure');
    const report = JSON.parse(readFileSync(join(out, 'client-report.json'), 'utf8'));
    expect(report.clients).toEqual(['python-agent-example']);
    expect(report.cells.find((c: { behaviour: string }) => c.behaviour === 'must-echo').status).toBe('pass');
    expect(readFileSync(join(out, 'requests.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('the same agent dropping reasoning_content exits 1 naming the rule and the request', async () => {
    const junitFile = join(work, 'broken.xml');
    const r = await runCliInProcess(
      [
        'run',
        '--provider',
        'deepseek',
        '--junit',
        junitFile,
        '--',
        'python3',
        agent('python-agent.py'),
        '--drop-reasoning',
      ],
      { cwd: work },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /✗ #2 deepseek POST \/deepseek\/chat\/completions -> 400: must-echo \(reasoning-content-not-passed-back\): assistant message 1 \(tool call\) has no reasoning_content/,
    );
    expect(readFileSync(junitFile, 'utf8')).toMatch(/<failure message="must-echo">/);
  });

  it('an AI SDK agent: on Claude it conforms (0); on DeepSeek through @ai-sdk/openai chat it drops reasoning_content (1, must-echo)', async () => {
    const ok = await runCliInProcess(
      ['run', '--provider', 'anthropic', '--provider', 'deepseek', '--', 'node', agent('ai-sdk-agent.mjs')],
      { cwd: work },
    );
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/## ai-sdk-agent \(anthropic\)/);
    const broken = await runCliInProcess(
      [
        'run',
        '--provider',
        'anthropic',
        '--provider',
        'deepseek',
        '--',
        'node',
        agent('ai-sdk-agent.mjs'),
        '--deepseek',
      ],
      { cwd: work },
    );
    expect(broken.code, broken.stdout + broken.stderr).toBe(1);
    expect(broken.stdout).toMatch(/✗ #2 deepseek POST \/deepseek\/chat\/completions -> 400: must-echo/);
  });

  it('drives a waiting agent turn by turn: --each-turn, and the JSON-lines protocol', async () => {
    const each = await runCliInProcess(
      ['run', '--provider', 'deepseek', '--each-turn', `python3 ${agent('python-agent.py')}`],
      {
        cwd: work,
        env: { AGENT_STATE_FILE: join(work, 'state.json') },
      },
    );
    expect(each.code, each.stdout + each.stderr).toBe(0);
    expect(each.stderr).toMatch(/turn 1\/2[\s\S]*turn 2\/2/);
    // One tool round per turn (2 requests each); turn 2 resumes turn 1's conversation from the state file.
    expect(each.stdout).toMatch(/agent exited 0, 4 requests/);
    const jsonl = await runCliInProcess(
      ['run', '--provider', 'openai', '--protocol', 'jsonl', '--', 'node', agent('jsonl-agent.mjs')],
      { cwd: work },
    );
    expect(jsonl.stderr).not.toMatch(/agent output/);
    expect(jsonl.code, jsonl.stdout + jsonl.stderr).toBe(0);
    expect(jsonl.stdout).toMatch(/agent exited 0, 4 requests/);
  });

  it('an agent that crashes exits 3 with its output', async () => {
    const crash = await runCliInProcess(['run', '--', 'node', '-e', 'console.log("boom: no key"); process.exit(4)'], {
      cwd: work,
    });
    expect(crash.code, crash.stdout + crash.stderr).toBe(3);
    expect(crash.stderr).toMatch(
      /the agent exited 4 and sent no request to any mock; .*\n--- agent output \(last part\) ---\nboom: no key\n/,
    );
  });
});

describe('reasoning-replay run: an AWS SDK agent with nothing wired but its region', async () => {
  it('reaches the Bedrock mock through AWS_ENDPOINT_URL_BEDROCK_RUNTIME and a Bedrock API key, over HTTP/2', async () => {
    const script = [
      "import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';",
      "const client = new BedrockRuntimeClient({ region: 'us-east-1', maxAttempts: 1 });",
      "const answer = await client.send(new ConverseStreamCommand({ modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }));",
      'let text = ""; for await (const e of answer.stream) text += e.contentBlockDelta?.delta?.text ?? "";',
      'if (!text) process.exit(5);',
    ].join('\n');
    // The AWS SDK is one of the matrices' packages: the script resolves it from test/real-clients' link to them.
    ensureMatrixPackages();
    const r = await runCliInProcess(
      ['run', '--provider', 'bedrock-claude', '--', 'node', '--input-type=module', '-e', script],
      {
        cwd: join(projectRoot(), 'test', 'real-clients'),
      },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // One request, no replay to judge: it conforms, with run's no-replay warning (exit 0; 1 under --strict).
    expect(r.stdout).toMatch(/! the agent conformed, with 1 warning: 1 requests over 1 session/);
    expect(r.stdout).toMatch(/this run judged no replay/);
  });
});
