import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/shared/project-root.js';

/**
 * The package as a user gets it: `npm pack` (dist/ comes from the build `npm test` runs first),
 * the tarball unpacked into a scratch project's node_modules, and a strictly typed vitest file
 * there that imports only `reasoning-replay` and `reasoning-replay/vitest`. No registry: the
 * scratch project sits under this repo's node_modules/.cache, so the package's own dependencies
 * resolve from the repo's node_modules as they would from the user's.
 */
const root = projectRoot();
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, 'rr-pack-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

const TYPED_TEST = `import { describe, expect, it } from 'vitest';
import { judgeRequest, replayForRoute, resolveRoute, startProviderMocks, type Finding, type History, type Verdict } from 'reasoning-replay';
import { expectConformant, useProviderMocks } from 'reasoning-replay/vitest';

const mocks = useProviderMocks({ providers: ['deepseek'] });
const history: History = { messages: [
  { role: 'user', content: 'Umbrella in Lisbon?' },
  { role: 'assistant', content: null, reasoning_content: 'Need the weather.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"rain":true}' },
] };

describe('the packed API', () => {
  it('resolves a route, replays a history through it, and the mock accepts the request', async () => {
    const policy = resolveRoute({ provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' });
    expect(policy.tier).toBe('must-echo');
    const request = replayForRoute(history, policy);
    const response = await fetch(mocks.baseUrls['deepseek'] + request.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) });
    expect(response.status).toBe(200);
    const seen: Verdict[] = mocks.verdicts;
    expect(seen.map((v) => v.provider)).toEqual(['deepseek']);
    expectConformant(mocks);
  });

  it('judges a body without a server, and startProviderMocks reports a violation', async () => {
    const dropped: History = { messages: history.messages.map(({ reasoning_content: _r, ...m }) => m) };
    const body = replayForRoute(dropped, resolveRoute({ provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-flash' })).body;
    const findings: Finding[] = judgeRequest('deepseek', { ...body, messages: (body.messages as Array<Record<string, unknown>>).map(({ reasoning_content: _r, ...m }) => m) });
    expect(findings.map((f) => f.rule)).toContain('must-echo');
    const own = await startProviderMocks({ providers: ['deepseek'] });
    try {
      await fetch(own.baseUrls['deepseek'] + '/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [history.messages[0], { role: 'assistant', content: null, tool_calls: history.messages[1]!.tool_calls }, history.messages[2]] }) });
      expect(own.violations()).toHaveLength(1);
      expect(() => expectConformant(own)).toThrow(/must-echo/);
      expect(own.report().summary.verdict).toBe('fail');
    } finally {
      await own.close();
    }
  });
});
`;

describe('the npm package', () => {
  it('packs dist/ with types and exports, and a strictly typed vitest file uses its API', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/vitest.d.ts',
        'bin/reasoning-replay.js',
        'specs/routes.json',
      ]),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.endsWith('.test.js') || f.endsWith('.map'))).toEqual([]);
    // The matrices' packages (test/matrices) and the links to their install stay out of what users install.
    expect(files.filter((f) => /(^|\/)(test|examples|node_modules)\//.test(f))).toEqual([]);

    const pkgDir = join(scratch, 'node_modules', 'reasoning-replay');
    mkdirSync(pkgDir, { recursive: true });
    execFileSync('tar', ['-xzf', join(scratch, packed!.filename), '-C', pkgDir, '--strip-components=1']);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
          skipLibCheck: true,
        },
        include: ['api.test.ts'],
      }),
    );
    writeFileSync(join(scratch, 'api.test.ts'), TYPED_TEST);
    execFileSync(bin('tsc'), ['-p', scratch], { cwd: scratch, encoding: 'utf8' });
    // Its own config: the repo's would apply, and vitest's default excludes anything under node_modules.
    writeFileSync(
      join(scratch, 'vitest.config.mjs'),
      "export default { test: { include: ['api.test.ts'], exclude: [] } };\n",
    );
    const run = execFileSync(
      bin('vitest'),
      ['run', '--root', scratch, '--config', join(scratch, 'vitest.config.mjs')],
      { cwd: scratch, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    expect(run).toMatch(/2 passed/);
    expect(readFileSync(join(pkgDir, 'package.json'), 'utf8')).toContain('"./vitest"');
  }, 120_000);
});
