import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * The floor plan is data (.dependency-cruiser.mjs) run by `npm run lint:boundaries`. These tests run
 * the same tool and rules on the real tree (no violation) and on a small planted tree (every rule
 * fires), so a rule that stopped matching (a renamed folder, a typo in a path regex) fails here
 * instead of passing silently.
 */
const root = projectRoot();
const work = mkdtempSync(join(tmpdir(), 'rr-boundaries-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CONFIG = '.dependency-cruiser.mjs';
const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

function cruise(dir: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [bin, 'src', '--config', CONFIG, '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

function plant(files: Record<string, string>): string {
  const dir = join(work, 'tree');
  cpSync(join(root, CONFIG), join(dir, CONFIG));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const use = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;
const useType = (from: string) => `import type { X } from '${from}';\nexport type Y = X;\n`;
const target = 'export const x = 1;\nexport type X = number;\n';

describe('the top of src/', () => {
  it('names the sides and the tools, each one folder, and nothing else', () => {
    const entries = readdirSync(join(root, 'src')).sort();
    expect(entries).toEqual(['engine', 'index.ts', 'judge', 'provider', 'shared', 'tools', 'vitest.ts']);
  });
});

describe('the real tree', () => {
  it('has no forbidden import and no cycle', () => {
    const { status, output } = cruise(root);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });
});

describe('every rule, on a planted tree', () => {
  // [rule, importing file, what it imports]
  const planted: Array<[rule: string, file: string, text: string]> = [
    ['shared-imports-only-itself', 'src/shared/a.ts', use('../engine/history/t.js')],
    ['shared-imports-only-itself', 'src/shared/b.ts', useType('../tools/t.js')],
    ['engine-imports-only-shared', 'src/engine/replay/a.ts', use('../../provider/t.js')],
    ['engine-imports-only-shared', 'src/engine/session/a.ts', useType('../../judge/t.js')],
    ['provider-imports-only-shared', 'src/provider/a.ts', useType('../engine/history/t.js')],
    ['provider-imports-only-shared', 'src/provider/b.ts', use('../judge/t.js')],
    ['judge-imports-only-shared', 'src/judge/a.ts', use('../provider/t.js')],
    ['judge-imports-only-shared', 'src/judge/b.ts', useType('../engine/history/t.js')],
    ['judge-imports-only-shared', 'src/judge/c.ts', use('../tools/t.js')],
    ['engine-history-not-up', 'src/engine/history/a.ts', use('../policy/t.js')],
    ['engine-policy-not-up', 'src/engine/policy/a.ts', useType('../families/t.js')],
    ['engine-families-not-up', 'src/engine/families/a.ts', use('../replay/t.js')],
    ['engine-replay-not-up', 'src/engine/replay/b.ts', use('../session/t.js')],
    ['engine-families-apart', 'src/engine/families/gemini/a.ts', use('../openai-chat/t.js')],
    ['engine-copilot-builds-only-on-openai-chat', 'src/engine/families/copilot/a.ts', use('../gemini/t.js')],
    ['provider-families-apart', 'src/provider/families/openai-chat/a.ts', use('../gemini/t.js')],
    [
      'provider-bedrock-converse-builds-only-on-anthropic-messages',
      'src/provider/families/bedrock-converse/a.ts',
      use('../gemini/t.js'),
    ],
    ['code-not-to-tests', 'src/tools/a.ts', use('./t.test-helper.js')],
    ['no-cycle', 'src/shared/cycle-a.ts', useType('./cycle-b.js')],
  ];
  const allowed: Record<string, string> = {
    'src/tools/allowed.ts':
      "import { x } from '../engine/history/t.js';\nimport { x as z } from '../provider/t.js';\nexport const y = x + z;\n",
    'src/engine/session/allowed.ts': use('../replay/t.js'),
    'src/engine/families/copilot/allowed.ts': use('../openai-chat/t.js'),
    'src/judge/allowed.ts': useType('../shared/t.js'),
    'src/judge/allowed.test.ts': use('../engine/history/t.js'),
  };
  const targets = [
    'src/engine/history/t.ts',
    'src/engine/policy/t.ts',
    'src/engine/families/t.ts',
    'src/engine/replay/t.ts',
    'src/engine/session/t.ts',
    'src/engine/families/openai-chat/t.ts',
    'src/engine/families/gemini/t.ts',
    'src/provider/families/gemini/t.ts',
    'src/provider/t.ts',
    'src/judge/t.ts',
    'src/shared/t.ts',
    'src/tools/t.ts',
    'src/tools/t.test-helper.ts',
  ];
  const dir = plant({
    ...Object.fromEntries(targets.map((t) => [t, target])),
    ...Object.fromEntries(planted.map(([, file, text]) => [file, text])),
    'src/shared/cycle-b.ts': useType('./cycle-a.js'),
    ...allowed,
  });
  const { status, output } = cruise(dir);

  it('fails on a tree with a forbidden import', () => {
    expect(status, output).not.toBe(0);
  });

  it.each(planted)('%s: reports the planted import in %s', (rule, file) => {
    expect(output).toMatch(new RegExp(`${rule}: ${file.replaceAll('.', '\\.')} →`));
  });

  it('reports nothing else: the tools composing the sides, a layer importing down, a dialect, a test', () => {
    const reported = output.split('\n').filter((l) => / error /.test(l));
    expect(reported.filter((l) => l.includes('allowed'))).toEqual([]);
    expect(reported).toHaveLength(planted.length);
  });
});
