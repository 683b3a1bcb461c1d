import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { uncoveredRoutes } from '../../../judge/conformance/route-coverage.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import { checkScope } from '../../services/matrix/check-scope.js';
import { loadMatrixInputs, runMatrix } from '../../services/matrix/run-matrix.js';
import { realWorldAgreement } from '../../services/real-world-cases/agreement.js';
import { sectionsBeyondTheMatrix } from '../../services/report/sections-beyond-the-matrix.js';
import { buildCompatibilityReport } from '../../services/report/build-compatibility-report.js';
import { REPORT_FILES, writeReport } from '../../services/report/write-report.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';

/**
 * Sharding must not change a byte: for N = 1, 2, 3 and 7 the shards of `check --shard i/N`, joined by `report --merge`, give
 * the same four files and the same exit code as one unsharded run. The matrix is narrowed to two providers (one
 * route made to fail, so the exit code is 1 and failures are in the files) to keep the 13 shard runs short; the
 * commands run through the CLI's own entry point, in process.
 */
const dir = mkdtempSync(join(tmpdir(), 'rr-shards-'));
const table = JSON.parse(readFileSync(defaultRoutesFile(), 'utf8')) as RouteTable;
table.routes.find((r) => r.id === 'mistral')!.fields.push('reasoning_details');
const routes = join(dir, 'routes.json');
writeFileSync(routes, JSON.stringify(table, null, 2));
const narrow = ['--routes', routes, '--provider', 'mistral', '--provider', 'deepseek'];

const cli = async (args: string[]): Promise<number> => main(args);
const files = (d: string) => Object.fromEntries(REPORT_FILES.map((f) => [f, readFileSync(join(d, f), 'utf8')]));

let unsharded: { code: number; files: Record<string, string> };

beforeAll(async () => {
  // Quiet: the commands print their matrices; the assertions are on the files and exit codes.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  // The unsharded run: `check` for its exit code and JUnit, and the report `report` builds from the same matrix.
  const out = join(dir, 'unsharded');
  const code = await cli(['check', ...narrow, '--quiet', '--junit', join(out, 'junit.xml')]);
  const loaded = loadMatrixInputs({ routesFile: routes });
  const run = await runMatrix(
    { routesFile: routes, engine: builtInEngine, routes: checkScope(loaded, ['mistral', 'deepseek'], undefined)! },
    loaded,
  );
  const report = buildCompatibilityReport(run, {
    routeOrder: loaded.table.routes.map((r) => r.id),
    untestedRoutes: [],
  });
  Object.assign(report, sectionsBeyondTheMatrix(loaded.specs, await realWorldAgreement({ specs: loaded.specs })));
  const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
  writeReport(report, out);
  unsharded = { code, files: { ...files(out), 'junit.xml': junit } };
  expect(uncoveredRoutes(loaded.table, loaded.specs)).toEqual([]);
}, 120_000);

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe('check --shard i/N, then report --merge', () => {
  it('the unsharded run fails on the edited route (so the comparison covers failures)', () => {
    expect(unsharded.code).toBe(1);
    expect(unsharded.files['compatibility.md']).toContain('mistral');
    expect(unsharded.files['junit.xml']).toContain('<failure');
  });

  // One shard (the degenerate deal), two, an odd count and a count above most providers' scenario counts: shards
  // that get no run of some route and shards that get one of several. N = 4 to 6 dealt the same keys by the same
  // rule and took 60% of this file's time.
  it.each([1, 2, 3, 7])(
    'N = %i: the merged files are byte-identical to the unsharded run, with the same exit code',
    async (count) => {
      const shards = join(dir, `shards-${count}`);
      const codes: number[] = [];
      for (let i = 1; i <= count; i++)
        codes.push(
          await cli([
            'check',
            ...narrow,
            '--quiet',
            '--shard',
            `${i}/${count}`,
            '--shard-out',
            join(shards, `${i}.json`),
          ]),
        );
      // At least one shard holds a failing route's runs, and says so.
      expect(codes).toContain(1);
      const out = join(dir, `merged-${count}`);
      const code = await cli(['report', '--merge', shards, '--out', out]);
      expect(code).toBe(unsharded.code);
      const merged = files(out);
      for (const name of REPORT_FILES) expect(merged[name], name).toBe(unsharded.files[name]);
    },
    120_000,
  );
});
