import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/helpers/run-cli-sync.test-helper.js';
import { loadMatrixInputs, runMatrix } from '../matrix/run-matrix.js';
import { projectRoot } from '../../shared/project-root.js';
import { checkScope } from '../matrix/check-scope.js';
import { startExternalEngine } from './external-engine.js';

/**
 * `check --engine`: the example adapters, correct and deliberately broken, through the real matrix
 * on four chat providers that each test something (must-echo, strict, aggregator, OpenAI's own
 * unknown-parameter refusal). The broken one must fail exactly the cells its two bugs touch.
 */
const examples = join(projectRoot(), 'examples', 'engines');
const ADAPTERS = {
  python: `python3 ${join(examples, 'python_engine.py')}`,
  typescript: `${process.execPath} --import tsx ${join(examples, 'ts-engine.ts')}`,
};
const PROVIDERS = ['deepseek', 'groq', 'openrouter', 'openai'];
const loaded = loadMatrixInputs({});

async function failingCells(command: string): Promise<string[]> {
  const engine = startExternalEngine({ command });
  try {
    const run = await runMatrix({ routes: checkScope(loaded, PROVIDERS, command)!, engine, retention: false }, loaded);
    expect(run.cells.length).toBeGreaterThan(20);
    return [
      ...new Set(
        run.cells.flatMap((c) => c.checks.filter((k) => k.status === 'fail').map((k) => `${c.target} ${k.behaviour}`)),
      ),
    ].sort();
  } finally {
    await engine.close();
  }
}

describe('check --engine: external request builders', () => {
  for (const [language, command] of Object.entries(ADAPTERS)) {
    it(`the ${language} adapter passes; its --broken twin fails must-echo on DeepSeek and strict-schema on Groq, nothing else`, async () => {
      expect(await failingCells(command)).toEqual([]);
      expect(await failingCells(`${command} --broken`)).toEqual([
        'deepseek must-echo',
        'groq fields-sent',
        'groq strict-schema',
      ]);
    }, 60_000);
  }

  it('from the CLI: exit 1 naming the engine and the failing cells, exit 2 for --engine with --base', () => {
    const broken = runCli(['check', '--quiet', '--provider', 'deepseek', '--engine', `${ADAPTERS.python} --broken`]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`engine under test: ${ADAPTERS.python} --broken`);
    expect(broken.stdout).toMatch(/deepseek[^\n]*must-echo/);
    const bad = runCli(['check', '--engine', 'true', '--base', 'HEAD']);
    expect(bad.code).toBe(2);
  });
});
