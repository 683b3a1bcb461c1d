import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { RUN_REPORT_HTML } from './render-run-html.js';

/**
 * run-report.html through the built CLI, as a user gets it: `run --out DIR` writes it beside its other files and
 * prints its path, `report --from-log LOG --out DIR` writes it from the log. The agent is a stand-in with no SDK: it
 * puts a planted key (from a *_API_KEY variable, so run knows it as a secret) into what it sends, replays DeepSeek's
 * reasoning once, then drops it, so the report has a failure, a diff with values, and a secret to keep out.
 */
const PLANTED = 'planted-Secret-9f8e7d6c5b4a3928';
const work = mkdtempSync(join(tmpdir(), 'rr-run-report-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const AGENT = `
const base = process.env.REASONING_REPLAY_DEEPSEEK_BASE_URL;
const key = process.env.PLANTED_API_KEY;
const tools = [{ type: 'function', function: { name: 'search_notes', description: 'Search notes',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } }];
const send = async (messages) => {
  const r = await fetch(base + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'deepseek-v4-flash', messages, tools }) });
  return r.json();
};
const user = { role: 'user', content: 'find the note about ' + key };
const first = await send([user]);
const call = first.choices[0].message;
const result = { role: 'tool', tool_call_id: call.tool_calls[0].id, content: 'one note' };
await send([user, { ...call, reasoning_content: 'I will search for ' + key }, result]);
const { reasoning_content, ...dropped } = call;
await send([user, dropped, result]);
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('run-report.html from the CLI', () => {
  let run: CliResult;
  let logged: CliResult;
  const out = join(work, 'out');
  const log = join(work, 'requests-with-bodies.jsonl');
  beforeAll(() => {
    writeFileSync(join(work, 'agent.mjs'), AGENT);
    const env = { PLANTED_API_KEY: PLANTED };
    // The key also rides on the agent's command line, which junit.xml names as its suite.
    run = runCli(['run', '--provider', 'deepseek', '--out', out, '--', 'node', 'agent.mjs', '--api-key', PLANTED], {
      cwd: work,
      env,
    });
    logged = runCli(['run', '--provider', 'deepseek', '--log', log, '--log-bodies', '--', 'node', 'agent.mjs'], {
      cwd: work,
      env,
    });
  });

  it('run writes it next to its other outputs and prints where', () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain(`wrote out/${RUN_REPORT_HTML}\n`);
    const html = readFileSync(join(out, RUN_REPORT_HTML), 'utf8');
    expect(html).toMatch(/<li class="line fail" data-provider="deepseek" data-rule="must-echo">/);
    expect(html).toContain('<span class="verdict fail-tone" id="verdict">✗ 1 request broke a provider rule</span>');
    // The accepted replay shows the carrier it sent, its value masked; the refused one shows it missing.
    expect(html).toMatch(
      /<code class="path">messages\[1\]\.reasoning_content<\/code> <code class="value">[^<]*I will search for/,
    );
    expect(html).toContain('I will search for [redacted-by-recorder:PLANTED_API_KEY]');
    expect(html).toMatch(/id="req-3" open>[\s\S]*<li class="miss-required"><code>reasoning_content<\/code>/);
  });

  it('report --from-log LOG --out DIR writes the same report from the log', () => {
    expect(logged.code, logged.stdout + logged.stderr).toBe(1);
    const dir = join(work, 'from-log');
    const r = runCli(['report', '--from-log', log, '--out', dir], { cwd: work });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`wrote from-log/${RUN_REPORT_HTML}\n`);
    const html = readFileSync(join(dir, RUN_REPORT_HTML), 'utf8');
    expect(html).toMatch(/<li class="line fail" data-provider="deepseek" data-rule="must-echo">/);
    expect(html).toContain('<div class="turn refused">');
  });

  it('the planted key appears in no file written and no line printed', () => {
    const files = [...filesUnder(work).filter((f) => !f.endsWith('agent.mjs'))];
    expect(files.map((f) => f.slice(work.length))).toEqual(
      expect.arrayContaining([
        `/out/${RUN_REPORT_HTML}`,
        `/from-log/${RUN_REPORT_HTML}`,
        '/requests-with-bodies.jsonl',
      ]),
    );
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(PLANTED);
    for (const printed of [run, logged]) expect(printed.stdout + printed.stderr).not.toContain(PLANTED);
    // Without --log-bodies, requests.jsonl keeps no body although the report was made from them.
    expect(readFileSync(join(out, 'requests.jsonl'), 'utf8')).not.toContain('"body"');
  });
});
