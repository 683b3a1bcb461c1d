import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';
import { loadMatrixInputs, runMatrix } from '../matrix/run-matrix.js';
import { projectRoot } from '../../../shared/project-root.js';
import { checkScope } from '../matrix/check-scope.js';
import { startExternalEngine } from './external-engine.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { EngineFailedError } from '../../../shared/errors/engine-failed-error.js';

/**
 * `check --engine`: the example engines, correct, with each --broken=<rule> switch, and with only
 * request building, through the real matrix. Each switch runs only the provider targets and
 * scenarios its rule needs (as check --provider narrows the matrix), so the test spawns one engine
 * per switch and stays fast. A broken switch must fail its rule, and nothing when the switch is off.
 */
const examples = join(projectRoot(), 'examples', 'engines');
const hasPython = spawnSync('python3', ['--version']).status === 0;
const ADAPTERS = {
  python: `python3 ${join(examples, 'python_engine.py')}`,
  typescript: `${process.execPath} --import tsx ${join(examples, 'ts-engine.ts')}`,
};
// Moonshot: Kimi K2.6's keep-thinking flag, which an engine must send for the history's reasoning to count.
const CHAT = ['deepseek', 'moonshot', 'groq', 'openrouter', 'openai'];
const loaded = loadMatrixInputs({});

/**
 * Each switch, the targets and scenarios that show it, and the "target behaviour" cells it must fail (or, for a
 * choice the providers accept that loses no reasoning, warn and not fail: an engine under --engine is judged by harm).
 */
const SWITCHES: Array<{ rule: string; providers: string[]; scenarios?: string[]; fails: string[]; warns?: string[] }> =
  [
    {
      rule: 'must-echo',
      providers: ['deepseek'],
      scenarios: ['tool-call-with-reasoning'],
      fails: ['deepseek must-echo'],
    },
    {
      rule: 'strict-schema',
      providers: ['groq'],
      scenarios: ['tool-call-with-reasoning'],
      fails: ['groq fields-sent', 'groq strict-schema'],
    },
    {
      rule: 'pad-scope',
      providers: ['deepseek'],
      scenarios: ['must-echo-pad-scope'],
      fails: [],
      warns: ['deepseek must-echo'],
    },
    { rule: 'typed-items', providers: ['deepseek'], scenarios: ['must-echo-pad-scope'], fails: ['deepseek must-echo'] },
    {
      rule: 'host-suffix',
      providers: ['vllm-local'],
      scenarios: ['host-look-alikes'],
      fails: ['vllm-local must-echo'],
    },
    {
      rule: 'fallback-5xx',
      providers: ['openrouter'],
      scenarios: ['fallback-edge-cases'],
      fails: ['openrouter fallback-recovers'],
    },
    {
      rule: 'session-leak',
      providers: ['openrouter'],
      scenarios: ['fallback-edge-cases'],
      fails: ['openrouter fallback-recovers'],
    },
    {
      rule: 'stream-join',
      providers: ['openrouter'],
      scenarios: ['streamed-redacted-reasoning'],
      fails: ['openrouter signatures-verbatim'],
    },
  ];

async function failingCells(command: string, providers: string[], scenarios?: string[]) {
  const engine = await startExternalEngine({ command });
  try {
    const run = await runMatrix(
      { routes: checkScope(loaded, providers, command)!, engine, retention: false, harm: false },
      { ...loaded, scenarios: scenarios ? loaded.scenarios.filter((s) => scenarios.includes(s.id)) : loaded.scenarios },
    );
    const having = (status: string) =>
      [
        ...new Set(
          run.cells.flatMap((c) =>
            c.checks.filter((k) => k.status === status).map((k) => `${c.target} ${k.behaviour}`),
          ),
        ),
      ].sort();
    return { fails: having('fail'), warns: having('warn'), run };
  } finally {
    await engine.close();
  }
}

/**
 * Each example's clean run over every chat route and scenario, made once per file and shared: its first test asserts
 * it whole, and each --broken switch's test reads its own targets and scenarios from it (the cells an unbroken engine
 * must not fail), where it used to run the engine clean again on that narrower matrix.
 */
const cleanRuns = new Map<string, ReturnType<typeof failingCells>>();
function cleanRun(command: string): ReturnType<typeof failingCells> {
  let run = cleanRuns.get(command);
  if (!run) cleanRuns.set(command, (run = failingCells(command, [...CHAT, 'vllm-local'])));
  return run;
}

describe('check --engine: external engines', () => {
  for (const [language, command] of Object.entries(ADAPTERS)) {
    const it_ = language === 'python' && !hasPython ? it.skip : it;
    if (language === 'python' && !hasPython)
      console.warn('python3 is not installed: the Python example engine is not run');

    it_(
      `the ${language} example passes the chat routes, streams and faults included`,
      async () => {
        const { fails, run } = await cleanRun(command);
        expect(run.cells.filter((c) => c.status !== 'n/a').length).toBeGreaterThan(40);
        expect(fails).toEqual([]);
        // It implements the fallback, reading and streams, and no store or compaction: those two are reported.
        expect(run.notJudged?.map((n) => n.operation).sort()).toEqual(['compact', 'store']);
      },
      120_000,
    );

    for (const s of SWITCHES) {
      it_(
        `the ${language} example's --broken=${s.rule} ${s.fails.length > 0 ? `fails ${s.fails.join(', ')}` : `warns ${s.warns!.join(', ')} and fails nothing`}`,
        async () => {
          const clean = (await cleanRun(command)).run.cells.filter(
            (c) => s.providers.includes(c.target) && (!s.scenarios || s.scenarios.includes(c.scenario)),
          );
          expect(clean.length).toBeGreaterThan(0);
          expect(clean.flatMap((c) => c.checks.filter((k) => k.status === 'fail').map((k) => k.behaviour))).toEqual([]);
          // The rule's cells fail; a bug may break more on its way (a wrong verdict then withholds wanted carriers).
          const broken = await failingCells(`${command} --broken=${s.rule}`, s.providers, s.scenarios);
          if (s.fails.length === 0) expect(broken.fails).toEqual([]);
          expect(broken.fails).toEqual(expect.arrayContaining(s.fails));
          expect(broken.warns).toEqual(expect.arrayContaining(s.warns ?? []));
        },
        120_000,
      );
    }
  }

  it('an engine that implements only request building: every other operation is reported not judged, never passed', async () => {
    const { run } = await failingCells(
      `${ADAPTERS.typescript} --build-only`,
      ['openai', 'openrouter'],
      ['fallback-edge-cases', 'streamed-redacted-reasoning', 'tool-call-with-reasoning'],
    );
    expect(run.notJudged?.map((n) => n.operation).sort()).toEqual(['compact', 'fallback', 'read', 'store', 'stream']);
    const openrouter = run.cells.find((c) => c.target === 'openrouter' && c.scenario === 'tool-call-with-reasoning')!;
    const resume = openrouter.checks.find((c) => c.behaviour === 'survives-resume')!;
    expect(resume).toMatchObject({
      status: 'n/a',
      detail: expect.stringContaining('not judged: the engine does not implement store'),
    });
  }, 60_000);

  // The CLI's entry point in this process (main(), as bin/ calls it): what is tested is the command's wording and exit
  // code; the engine is still a child process.
  it('from the CLI: a failing switch exits 1 naming the engine and the rule; --build-only lists what was not judged', async () => {
    const broken = await runCliInProcess([
      'check',
      '--quiet',
      '--provider',
      'deepseek',
      '--engine',
      `${ADAPTERS.typescript} --broken`,
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`engine under test: ${ADAPTERS.typescript} --broken`);
    expect(broken.stdout).toMatch(/deepseek[^\n]*must-echo/);
    // The table's own harm and its route count are this project's, not the engine's.
    expect(broken.stdout).not.toMatch(/^! warning: /m);
    expect(broken.stdout).toMatch(
      /^engine .* --broken, judged against the provider specs and the expected routes of specs\/routes\.json, \d+ provider targets/m,
    );
    expect(broken.stdout).not.toMatch(/\d+ routes,/);
    // Padding plain turns is a choice the providers accept: warnings that say why, exit 0.
    const padded = await runCliInProcess([
      'check',
      '--quiet',
      '--provider',
      'deepseek',
      '--engine',
      `${ADAPTERS.typescript} --broken=pad-scope`,
    ]);
    expect(padded.code, padded.stdout).toBe(0);
    expect(padded.stdout).toMatch(
      /^! deepseek × must-echo-pad-scope[^\n]*\n {4}\[must-echo\] .*plain assistant message \d+ .*a choice, not harm.*decisions\/0002-the-pad\.md/m,
    );
    const buildOnly = await runCliInProcess([
      'check',
      '--quiet',
      '--provider',
      'groq',
      '--engine',
      `${ADAPTERS.typescript} --build-only`,
    ]);
    expect(buildOnly.code).toBe(0);
    expect(buildOnly.stdout).toMatch(
      /– not judged: the engine does not implement read \(reading answers into history\)/,
    );
    expect(buildOnly.stdout).toMatch(/not judged: [a-z, ]*store[a-z, ]* \(the engine does not implement them\)/);
    const strict = await runCliInProcess([
      'check',
      '--quiet',
      '--strict',
      '--provider',
      'groq',
      '--engine',
      `${ADAPTERS.typescript} --build-only`,
    ]);
    expect(strict.code).toBe(1);
    expect((await runCliInProcess(['check', '--engine', 'true', '--base', 'HEAD'])).code).toBe(2);
  }, 150_000);

  it('shakes hands first: an engine that does not answer is one line naming the command, exit 2, before any cell runs', async () => {
    // `sleep 60 | cat` never answers, and its shell forks: the CLI must still stop it and exit, so that one runs the
    // built CLI as a process (a hang fails on the timeout). An engine that is missing or exits needs no process of its
    // own: main() in this process.
    for (const command of ['nonexistent-engine-cmd', 'false', 'sleep 60 | cat']) {
      const args = ['check', '--quiet', '--timeout', '500', '--engine', command];
      const r = command.includes('sleep') ? runCli(args, { timeoutMs: 30_000 }) : await runCliInProcess(args);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`"${command}" did not answer the handshake`);
      expect(r.stdout).not.toMatch(/scenario runs|✗|warning/);
    }
  });

  describe('an engine that breaks the protocol is an engine error, never a provider verdict', () => {
    // Builds plain bodies and implements read, which goes wrong in the way MODE says.
    const script = join(mkdtempSync(join(tmpdir(), 'rr-engine-')), 'engine.mjs');
    writeFileSync(
      script,
      `import { createInterface } from 'node:readline';
const MODE = process.argv[2];
const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line);
  if (r.type === 'hello') return say({ id: r.id, capabilities: ['read'] });
  if (r.type === 'build') {
    if (MODE === 'no-body') return say({ id: r.id, bod: {} });
    const messages = r.history.messages.map(({ role, content, tool_calls, tool_call_id }) => ({ role, content, tool_calls, tool_call_id }));
    return say({ id: r.id, body: { model: r.target.model, messages } });
  }
  if (MODE === 'crash') { process.stderr.write('Traceback: KeyError: choices\\n'); process.exit(3); }
  if (MODE === 'malformed') return say({ id: r.id, message: { role: 'robot', content: 1 } });
  return say({ id: r.id, error: 'cannot parse this answer' });
});
`,
    );
    const run = async (mode: string) => {
      const engine = await startExternalEngine({ command: `${process.execPath} ${script} ${mode}` });
      try {
        await runMatrix(
          { routes: checkScope(loaded, ['groq'], 'engine')!, engine, retention: false, harm: false },
          { ...loaded, scenarios: loaded.scenarios.filter((s) => s.id === 'tool-call-with-reasoning') },
        );
        return undefined;
      } catch (err) {
        return err;
      } finally {
        await engine.close();
      }
    };

    it.each([
      ['crash', 'read', /exited 3; its stderr ends: Traceback: KeyError: choices/],
      ['malformed', 'read', /its message at \/\w+: must be/],
      ['read-error', 'read', /answered with an error: cannot parse this answer/],
      ['no-body', 'build', /its answer has no "body" object/],
    ])('%s: the run stops with an engine error naming %s and why', async (mode, operation, why) => {
      const err = await run(mode);
      expect(err).toBeInstanceOf(EngineFailedError);
      expect((err as EngineFailedError).operation).toBe(operation);
      expect((err as Error).message).toMatch(why);
      expect((err as Error).message).toMatch(/^engine error in /);
    });

    it('from the CLI: exit 2, one line naming the operation and the stderr, no matrix', async () => {
      const r = await runCliInProcess([
        'check',
        '--quiet',
        '--provider',
        'groq',
        '--engine',
        `${process.execPath} ${script} crash`,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/engine error in read: .*Traceback: KeyError: choices/);
      expect(r.stdout).not.toMatch(/provider-accepts|✗/);
    }, 60_000);
  });
});
