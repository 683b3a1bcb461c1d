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
const LINT_CACHE = ['--cache', join(root, 'node_modules', '.cache', 'depcruise'), '--cache-strategy', 'content'];

function cruise(dir: string, extra: string[] = []): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [bin, 'src', '--config', CONFIG, '--output-type', 'err', ...extra], {
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

  it('shows the three layers of the tools: the CLI, the commands, the services, and nothing else', () => {
    expect(readdirSync(join(root, 'src', 'tools')).sort()).toEqual(['cli', 'commands', 'services']);
  });
});

describe('the real tree', () => {
  it('has no forbidden import and no cycle', () => {
    // With the cache `npm run lint:boundaries` keeps (file contents hashed): npm test cruised this tree just before,
    // so only files changed since are read again; a violation is found all the same.
    const { status, output } = cruise(root, LINT_CACHE);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });
});

describe('every rule, on a planted tree', () => {
  // [rule, importing file, what it imports]
  const planted: Array<[rule: string, file: string, text: string]> = [
    ['shared-imports-only-itself', 'src/shared/a.ts', use('../engine/history/t.js')],
    ['shared-imports-only-itself', 'src/shared/b.ts', useType('../tools/cli/t.js')],
    ['engine-imports-only-shared', 'src/engine/replay/a.ts', use('../../provider/t.js')],
    ['engine-imports-only-shared', 'src/engine/session/a.ts', useType('../../judge/t.js')],
    ['provider-imports-only-shared', 'src/provider/a.ts', useType('../engine/history/t.js')],
    ['provider-imports-only-shared', 'src/provider/b.ts', use('../judge/t.js')],
    ['judge-imports-only-shared', 'src/judge/a.ts', use('../provider/t.js')],
    ['judge-imports-only-shared', 'src/judge/b.ts', useType('../engine/history/t.js')],
    ['judge-imports-only-shared', 'src/judge/c.ts', use('../tools/services/serve/t.js')],
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
    ['code-not-to-tests', 'src/tools/cli/a.ts', use('./t.test-helper.js')],
    ['tools-only-cli-commands-services', 'src/tools/loose.ts', use('./services/serve/t.js')],
    ['tools-only-cli-commands-services', 'src/tools/matrix/a.ts', useType('../services/serve/t.js')],
    ['tools-command-uses-no-other-command', 'src/tools/commands/gate/a.ts', use('../verify/t.js')],
    ['tools-command-uses-no-other-command', 'src/tools/commands/verify/b.ts', useType('../gate/t.js')],
    ['tools-service-uses-no-command', 'src/tools/services/serve/a.ts', use('../../commands/gate/t.js')],
    ['tools-service-uses-no-command', 'src/tools/services/report/a.ts', useType('../../commands/verify/t.js')],
    ['tools-cli-on-top', 'src/tools/commands/verify/c.ts', use('../../cli/t.js')],
    ['tools-cli-on-top', 'src/tools/services/report/b.ts', useType('../../cli/t.js')],
    ['serve-carries-bytes', 'src/tools/services/serve/b.ts', use('../../../provider/t.js')],
    ['no-cycle', 'src/shared/cycle-a.ts', useType('./cycle-b.js')],
  ];
  const allowed: Record<string, string> = {
    'src/tools/cli/allowed.ts':
      "import { x } from '../../engine/history/t.js';\nimport { x as z } from '../commands/gate/t.js';\nexport const y = x + z;\n",
    'src/tools/commands/gate/allowed.ts':
      "import { x } from '../../services/serve/t.js';\nimport { x as z } from '../../../provider/t.js';\nexport const y = x + z;\n",
    'src/tools/commands/gate/allowed-within.ts': use('./t.js'),
    'src/tools/services/report/allowed.ts': use('../serve/t.js'),
    'src/tools/services/serve/allowed.ts': use('../../../provider/handlers/answer-http-request.js'),
    'src/tools/commands/verify/allowed.test.ts': use('../../cli/t.js'),
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
    'src/provider/handlers/answer-http-request.ts',
    'src/judge/t.ts',
    'src/shared/t.ts',
    'src/tools/cli/t.ts',
    'src/tools/cli/t.test-helper.ts',
    'src/tools/commands/gate/t.ts',
    'src/tools/commands/verify/t.ts',
    'src/tools/services/serve/t.ts',
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

  it('reports nothing else: the tools composing the sides, a command using a service, a layer importing down, a dialect, a test', () => {
    const reported = output.split('\n').filter((l) => / error /.test(l));
    expect(reported.filter((l) => l.includes('allowed'))).toEqual([]);
    expect(reported).toHaveLength(planted.length);
  });
});
