import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';
import { PLUGIN_DIR, pluginPython, type PluginPython } from './plugin-venv.test-helper.js';

/**
 * The pytest plugin (python/) run by Python's own pytest, as a Python team runs it: installed with pip, its tests
 * (python/tests: sample test files in a pytest of their own against the built CLI's serve) must all pass, and the
 * examples (python/examples, the openai, anthropic and google-genai SDKs) must pass, their broken variants fail
 * naming the rule. Where Python, pytest or a package is missing, the test is skipped with the reason printed.
 */
const root = projectRoot();
const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
/** The CLI as the plugin runs it: the built bin, with this Node (npm test builds before vitest). */
const CLI = `${quote(process.execPath)} ${quote(join(root, 'bin', 'reasoning-replay.js'))}`;

function pytest(python: Exclude<PluginPython, { skipped: string }>, args: string[]) {
  const result = spawnSync(python.python, ['-m', 'pytest', '-p', 'no:cacheprovider', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
    env: {
      ...process.env,
      REASONING_REPLAY_CMD: CLI,
      // From source the plugin is not an entry point: named with -p, found on PYTHONPATH (python/tests does the same
      // for the pytest runs it starts).
      ...(python.mode === 'source' ? { PYTHONPATH: join(PLUGIN_DIR, 'src') } : {}),
    },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

const plugin = (python: PluginPython) =>
  'mode' in python && python.mode === 'source' ? ['-p', 'pytest_reasoning_replay.plugin'] : [];

/** The closing line pytest prints, e.g. `7 passed in 30.12s`. */
const summaryOf = (out: string) => out.trim().split('\n').at(-1) ?? '';

let tests: PluginPython = { skipped: 'not probed yet' };
let examples: PluginPython = { skipped: 'not probed yet' };
beforeAll(() => {
  tests = pluginPython('pytest-plugin');
  if ('skipped' in tests) console.warn(`pytest plugin: python/tests skipped: ${tests.skipped}`);
  else if (tests.mode === 'source') console.warn('pytest plugin: pip could not install python/; run from source (-p)');
  examples = pluginPython('pytest-plugin-examples', join(PLUGIN_DIR, 'examples', 'requirements.txt'));
  if ('skipped' in examples) console.warn(`pytest plugin: python/examples skipped: ${examples.skipped}`);
}, 900_000);

describe('the pytest plugin, run by pytest', () => {
  it('python/tests all pass: a conforming agent passes, a broken one fails naming the rule, request and source', (ctx) => {
    if ('skipped' in tests) return ctx.skip(tests.skipped);
    const { code, out } = pytest(tests, [...plugin(tests), join(PLUGIN_DIR, 'tests'), '-q', '-rfEs']);
    // Exit 5 is "no tests collected" and a summary with skipped/failed is not a pass: only "N passed" counts.
    expect(code, out).toBe(0);
    expect(summaryOf(out), out).toMatch(/^\d+ passed in /);
    expect(Number(/^(\d+) passed/.exec(summaryOf(out))?.[1])).toBeGreaterThanOrEqual(7);
  }, 600_000);

  it('python/examples pass with the openai, anthropic and google-genai SDKs; their broken variants fail naming the rule', (ctx) => {
    if ('skipped' in examples) return ctx.skip(examples.skipped);
    const dir = join(PLUGIN_DIR, 'examples');
    const ok = pytest(examples, [dir, '-q', '-rxX']);
    expect(ok.code, ok.out).toBe(0);
    expect(summaryOf(ok.out), ok.out).toMatch(/^3 passed, 3 xfailed(, \d+ warnings?)? in /);
    // --runxfail runs the broken variants as plain tests: each fails, with the plugin's verdict naming its rule.
    const broken = pytest(examples, [dir, '-q', '--runxfail', '-k', 'dropping or stripping']);
    expect(broken.code, broken.out).toBe(1);
    expect(summaryOf(broken.out), broken.out).toMatch(/^3 failed, 3 deselected(, \d+ warnings?)? in /);
    for (const [example, rule] of [
      ['test_openai_deepseek.py::test_agent_dropping_reasoning', 'must-echo'],
      ['test_anthropic.py::test_agent_dropping_thinking', 'signatures-verbatim'],
      ['test_google_genai.py::test_agent_stripping_signatures', 'signatures-verbatim'],
    ] as const) {
      const section = broken.out.slice(broken.out.indexOf(`_ ${example.split('::')[1]} _`));
      expect(section, `${example}\n${broken.out}`).toMatch(
        new RegExp(
          `reasoning-replay: ${rule} broken \\(\\d+ requests? the provider would refuse\\)[\\s\\S]*?rule: ${rule} `,
        ),
      );
    }
  }, 600_000);
});
