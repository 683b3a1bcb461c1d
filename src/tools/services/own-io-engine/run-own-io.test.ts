import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { runOwnIo, type OwnIoResult } from './run-own-io.js';
import { pythonEnv } from '../../commands/frameworks/python-venv.js';
import { projectRoot } from '../../../shared/project-root.js';
import { EngineFailedError } from '../../../shared/errors/engine-failed-error.js';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

/**
 * examples/engines/own_io_engine.py, on the official `openai` and `anthropic` SDKs (a venv made once from
 * examples/engines/own-io-requirements.txt and this machine's wheel index), judged from the mocks' traffic: clean it
 * passes every behaviour its targets exercise, and each --broken switch fails its rule and only its rule.
 */
const python = pythonEnv('examples/engines/own-io-requirements.txt');
const skipped = 'skipped' in python ? python.skipped : undefined;
if (skipped) console.warn(`own-I/O example engine skipped: ${skipped}`);
const loaded = loadMatrixInputs();
const engine = (broken?: string) =>
  `${'python' in python ? python.python : 'python3'} ${join(projectRoot(), 'examples/engines/own_io_engine.py')}${broken ? ` --broken=${broken}` : ''}`;

const run = (providers: string[], broken?: string) =>
  runOwnIo({
    command: engine(broken),
    timeoutMs: 60_000,
    targets: loaded.specs.filter((s) => providers.includes(s.id)),
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
  });

const failing = (results: readonly OwnIoResult[]) =>
  [...new Set(results.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => c.behaviour)))].sort();

describe.skipIf(!!skipped)('check --engine-io own: the Python example engine on the official SDKs', () => {
  it(
    'clean, every run passes and the stored, compacted and streamed runs are all judged',
    { timeout: 180_000 },
    async () => {
      const results = await run(['deepseek', 'anthropic']);
      expect(results.map((r) => `${r.provider} ${r.model} ${r.stream}`).sort()).toEqual([
        'anthropic claude-fable-5-1 false',
        'anthropic claude-fable-5-1 true',
        'anthropic claude-sonnet-4-5 false',
        'anthropic claude-sonnet-4-5 true',
        'deepseek deepseek-v4-flash false',
        'deepseek deepseek-v4-flash true',
      ]);
      expect(failing(results)).toEqual([]);
      for (const r of results) {
        const status = Object.fromEntries(r.checks.map((c) => [c.behaviour, c.status]));
        for (const b of [
          'provider-accepts',
          'must-echo',
          'history-unmutated',
          'survives-compaction',
          'survives-branch',
          'survives-resume',
        ])
          expect(`${r.provider} ${r.model} ${r.stream} ${b} ${status[b]}`).toBe(
            `${r.provider} ${r.model} ${r.stream} ${b} pass`,
          );
        if (r.model === 'claude-fable-5-1') expect(status['binding-respected']).toBe('pass');
      }
    },
  );

  // The CLI's entry point in this process (main(), as bin/ calls it): the lines, the JUnit file and the exit code are
  // what is tested; the engine is a child process either way.
  it('through the CLI: each target’s line, the summary, exit 1 when broken', { timeout: 180_000 }, async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'rr-own-junit-')), 'out', 'junit.xml');
    const clean = await runCliInProcess([
      'check',
      '--engine',
      engine(),
      '--engine-io',
      'own',
      '--provider',
      'deepseek',
      '--junit',
      junit,
    ]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    // The same verdicts for CI: a testsuite per target run, survives-compaction among its passing testcases.
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml).toMatch(
      /<testsuites name="reasoning-replay own I\/O: [^"]*own_io_engine\.py" tests="\d+" failures="0"/,
    );
    expect(xml).toMatch(
      /<testcase classname="reasoning-replay\.own-io\.deepseek\.[^"]+\.streamed" name="survives-compaction"/,
    );
    expect(clean.stdout).toMatch(
      /^✓ deepseek deepseek-v4-flash \(streamed, route deepseek\): \d+ requests; .*✓survives-compaction/m,
    );
    expect(clean.stdout).toMatch(
      /\(own I\/O\), judged from the mocks' traffic: 2 target runs .*: 2 pass, 0 warn, 0 fail/,
    );
    // --broken=session-leak on deepseek, judged here once: history-unmutated fails, and only it (each failing check
    // is marked ✗ on its target's line).
    const broken = await runCliInProcess([
      'check',
      '--engine',
      engine('session-leak'),
      '--engine-io',
      'own',
      '--provider',
      'deepseek',
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^ {4}✗ history-unmutated: state leaked between sessions/m);
    const failed = new Set(
      [...broken.stdout.matchAll(/^✗ deepseek .*$/gm)].flatMap((l) => l[0].match(/(?<=✗)[a-z-]+/g)),
    );
    expect([...failed]).toEqual(['history-unmutated']);
  });

  // Each its own engine process and its own mocks: they run at once, one per core. (session-leak is judged through
  // the CLI above.)
  it.concurrent.for<[string, string[], string]>([
    ['compaction-drops-reasoning', ['deepseek'], 'survives-compaction'],
    ['stream-drops-signature', ['anthropic'], 'signatures-verbatim'],
    ['bound-block', ['anthropic'], 'binding-respected'],
  ])('--broken=%s on %j fails %s only', { timeout: 180_000 }, async ([broken, providers, rule], { expect }) => {
    const results = await run(providers, broken);
    expect(failing(results)).toEqual([rule]);
    if (broken === 'stream-drops-signature')
      expect(results.filter((r) => r.status === 'fail').every((r) => r.stream)).toBe(true);
  });
});

describe('check --engine-io own: engine errors are the engine’s', () => {
  it('own I/O without --engine, or sharded, is bad input (exit 2)', async () => {
    const alone = await runCliInProcess(['check', '--engine-io', 'own']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--engine-io.*own needs --engine/);
    expect((await runCliInProcess(['check', '--engine', 'true', '--engine-io', 'own', '--shard', '1/2'])).code).toBe(2);
    // Every target runs plain and streamed already: --stream would change nothing, and says so.
    const stream = await runCliInProcess(['check', '--engine', 'true', '--engine-io', 'own', '--stream']);
    expect(stream.code).toBe(2);
    expect(stream.stderr).toMatch(/--stream.*does not apply with --engine-io own/);
  });

  it('an engine that cannot do its own I/O, or exits, is an engine error naming the step', async () => {
    const silent = `node -e "process.stdin.on('data', d => { const m = JSON.parse(d); console.log(JSON.stringify({ id: m.id, capabilities: [] })); })"`;
    const noOwn = runOwnIo({
      command: silent,
      timeoutMs: 10_000,
      targets: loaded.specs.filter((s) => s.id === 'deepseek'),
      specs: loaded.specs,
      fixtures: loaded.fixtures,
      table: loaded.table,
    });
    await expect(noOwn).rejects.toThrow(EngineFailedError);
    await expect(noOwn).rejects.toThrow(/engine error in hello: .*own-io/);
    const exits = `node -e "process.stdin.once('data', d => { console.log(JSON.stringify({ id: 0, capabilities: ['own-io'] })); setTimeout(() => { console.error('boom'); process.exit(3); }, 50); })"`;
    await expect(
      runOwnIo({
        command: exits,
        timeoutMs: 10_000,
        targets: loaded.specs.filter((s) => s.id === 'deepseek'),
        specs: loaded.specs,
        fixtures: loaded.fixtures,
        table: loaded.table,
      }),
    ).rejects.toThrow(/engine error in session\.open: the engine command exited 3; its stderr ends: boom/);
    // A turn answered without the stored history: the engine's mistake, named with the schema's complaint.
    const noHistory = `node -e "require('readline').createInterface({ input: process.stdin }).on('line', l => { const m = JSON.parse(l); console.log(JSON.stringify(m.type === 'hello' ? { id: m.id, capabilities: ['own-io'] } : { id: m.id, done: true })); })"`;
    await expect(
      runOwnIo({
        command: noHistory,
        timeoutMs: 10_000,
        targets: loaded.specs.filter((s) => s.id === 'deepseek'),
        specs: loaded.specs,
        fixtures: loaded.fixtures,
        table: loaded.table,
      }),
    ).rejects.toThrow(/engine error in turn: .*history/);
  });
});
