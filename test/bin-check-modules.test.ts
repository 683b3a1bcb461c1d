import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/shared/project-root.js';

// `check` answers its exchanges from the mock routes in process (decision 0126). msw (with its cookie jar: tough-cookie
// and tldts) and undici (with Node's HTTP stack) cost about a fifth of a CPU-second to load; a stray import of the msw
// handlers, or one look at a fetch global, would bring them back without any test noticing the time.
describe('the modules `check` loads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-check-modules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hold neither msw nor its cookie jar, and Node never loads undici', () => {
    const list = join(dir, 'loaded.txt');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';\n` +
        `export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); }\n`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
        // process.moduleLoadList (undocumented, present since Node 0.x) names every internal module loaded.
        `process.on('exit', () => process.stderr.write('\\ninternal-undici ' + (process.moduleLoadList ?? []).some((m) => m.includes('undici')) + '\\n'));\n`,
    );
    const bin = join(projectRoot(), 'bin', 'reasoning-replay.js');
    const run = spawnSync(process.execPath, ['--import', register, bin, 'check', '--quiet', '--provider', 'deepseek'], {
      encoding: 'utf8',
      cwd: projectRoot(),
    });
    expect(run.status, run.stderr).toBe(0);
    const loaded = readFileSync(list, 'utf8').split('\n').filter(Boolean);
    // The hook saw the run: the routes and the matrix were loaded through it.
    expect(loaded.some((url) => url.endsWith('/provider/handlers/provider-routes.js'))).toBe(true);
    expect(loaded.filter((url) => /\/node_modules\/(msw|@mswjs|tough-cookie|tldts)\//.test(url))).toEqual([]);
    expect(run.stderr).toContain('internal-undici false');
  }, 60_000);
});
