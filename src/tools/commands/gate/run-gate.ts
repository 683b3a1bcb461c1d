import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { formatFailures } from '../../services/report/format-matrix.js';
import { uncoveredRoutes } from '../../../judge/conformance/route-coverage.js';
import type { EngineUnderTest } from '../../../judge/engine-under-test.js';
import { loadMatrixInputs, matrixItems, runMatrix } from '../../services/matrix/run-matrix.js';
import type { ShardItem } from '../../services/matrix/deal-shards.js';
import type { ShardSpec } from '../../services/matrix/shard-spec.js';
import { judgeTables } from '../../../judge/harm/judge-table-change.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { buildCompatibilityReport, decisionsOf } from '../../services/report/build-compatibility-report.js';
import type { CompatibilityReport } from '../../services/report/compatibility-report.js';
import { summarizeDetail } from '../../services/report/explain-check.js';
import { describeCounts, STATUS_SYMBOL } from '../../services/report/status-symbols.js';
import { renderJunit } from '../../services/report/render-junit.js';
import { renderMarkdown } from '../../services/report/render-markdown.js';
import { loadRouteTable, parseRouteTable } from '../../../shared/route-table/load-route-table.js';
import { writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import { writeReport } from '../../services/report/write-report.js';
import { affectedRoutes, engineChanges } from './affected-routes.js';
import { describeRouteTableDiff, type RouteChange } from './describe-route-table-diff.js';
import { changedSince, gitToplevel, resolveCommit, showAtCommit, uncommittedPaths } from './git.js';
import { errorAnnotation, warningAnnotation } from './github-annotations.js';
import { jsonPointerLines, lineOfPointer } from '../../../shared/validation/json-positions.js';

export interface GateOptions {
  base: string;
  /** Route table in the working tree; defaults to specs/routes.json of the repository. */
  routes?: string;
  junit?: string;
  /** Where CI publishes the HTML report: the markdown summary links to it. */
  htmlUrl?: string;
  cwd?: string;
  /** Refuse (exit 2) when the working tree has uncommitted changes. */
  requireClean?: boolean;
  githubActions?: boolean;
  /** GitHub's $GITHUB_STEP_SUMMARY file: the diff in words and the markdown report are appended to it. */
  stepSummary?: string;
  /**
   * Write the gate's report here: the four files `report` writes (of the routes the gate ran), and
   * `gate.md`, the diff in words with the markdown report (what the step summary gets), which the
   * GitHub Action comments on the pull request.
   */
  outDir?: string;
  stream?: boolean;
  /** Deadline per call, body included; a stalled provider fails its cell instead of hanging the gate. */
  timeoutMs?: number;
  write?: (text: string) => void;
  /** The engine the matrix runs (the caller injects the built-in one: src/tools/services/engine-adapters/built-in-engine.ts). */
  engine: EngineUnderTest;
  /** Run only this shard of the affected matrix (`check --base REF --shard i/N`). */
  shard?: ShardSpec;
}

export interface GateResult {
  failed: boolean;
  changes: RouteChange[];
  /** Routes that ran; undefined when every route ran. */
  scope?: string[];
  report: CompatibilityReport;
  /** What a shard result records: the table gated, its route order, the base commit, the whole affected matrix. */
  routesPath: string;
  routeOrder: string[];
  baseCommit: string;
  items: ShardItem[];
  harmFails: boolean;
}

/**
 * `check --base REF`: the route table at REF against the one in the working tree. Says what changed
 * in words, runs the matrix for the routes it can affect (every route when the engine, provider
 * rules, scenarios, schemas or fixtures changed too), and reports failures as text, JUnit and
 * GitHub annotations pointing at the line of the table that introduced them.
 *
 * The working tree is compared as it is, uncommitted edits included: locally that is the table
 * about to be committed, and in CI the checkout is the pull request's head. `requireClean` is for
 * those who want the gate to judge committed state only.
 */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const out = options.write ?? ((text: string) => process.stdout.write(text));
  const cwd = options.cwd ?? process.cwd();
  const top = gitToplevel(cwd);
  const headFile = options.routes ? resolve(cwd, options.routes) : join(top, 'specs', 'routes.json');
  const rel = relative(top, headFile);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new InputError(
      headFile,
      '',
      `is outside the git repository ${top}`,
      'with --base, gate a route table the repository tracks',
    );
  }
  const relPosix = rel.split(sep).join('/');
  if (options.requireClean) {
    const dirty = uncommittedPaths(top);
    if (dirty.length > 0) {
      const shown = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, and ${dirty.length - 5} more` : '');
      throw new InputError(
        top,
        '',
        `the working tree has uncommitted changes (${shown})`,
        'commit them, or drop --require-clean to gate the working tree as it is',
      );
    }
  }
  const sha = resolveCommit(top, options.base);
  const baseText = showAtCommit(top, sha, relPosix);
  if (baseText === undefined) {
    throw new InputError(
      '--base',
      '',
      `${options.base} has no ${relPosix}`,
      `pick a base at or after the commit that added ${relPosix}`,
    );
  }
  const baseTable = parseRouteTable(baseText, `${options.base}:${relPosix}`);
  const headTable = loadRouteTable(headFile);
  const changes = describeRouteTableDiff(baseTable, headTable);

  out(`route table: ${options.base}:${relPosix} -> working tree ${relPosix}\n`);
  if (changes.length === 0) out('  no change\n');
  for (const c of changes) out(`  • ${c.text}\n`);

  const engine = engineChanges(changedSince(top, sha));
  const inRepo = (p: string) => (existsSync(join(top, p)) ? join(top, p) : undefined);
  const loaded = loadMatrixInputs({
    routesFile: headFile,
    ...(inRepo('specs/providers') ? { providersDir: inRepo('specs/providers')! } : {}),
    ...(inRepo('specs/scenarios') ? { scenariosDir: inRepo('specs/scenarios')! } : {}),
    ...(inRepo('fixtures/providers') ? { fixturesDir: inRepo('fixtures/providers')! } : {}),
  });
  // The harm of the change itself, read off the provider specs (every target, reachedAs included,
  // whatever the scope below runs): harmful fails the gate; harmless says why, provider by provider.
  const harm = changes.length > 0 ? judgeTables(baseTable, headTable, loaded.specs) : undefined;
  if (harm) {
    out(`harm of this change, from the provider specs: ${harm.verdict}\n`);
    for (const f of harm.findings)
      out(`  ${f.status === 'fail' ? '✗' : '!'} ${f.provider}, ${f.turns ?? 'every request'}: ${f.detail}\n`);
    for (const r of harm.reasons) out(`  · ${r}\n`);
  }
  const harmFails =
    harm !== undefined && (harm.verdict === 'unexplained' || harm.findings.some((f) => f.status === 'fail'));
  let scope: Set<string> | undefined;
  if (engine.length > 0) {
    const shown = engine.slice(0, 5).join(', ') + (engine.length > 5 ? `, and ${engine.length - 5} more` : '');
    out(`engine, specs or fixtures changed since ${options.base} (${shown}): running every route\n`);
  } else {
    scope = affectedRoutes(baseTable, headTable, changes, loaded.specs);
    out(
      scope.size ? `affected routes: ${[...scope].join(', ')}\n` : 'no route can behave differently: nothing to run\n',
    );
  }

  const run =
    scope && scope.size === 0
      ? { routesFile: headFile, startedAt: new Date().toISOString(), durationMs: 0, cells: [] }
      : await runMatrix(
          {
            routesFile: headFile,
            engine: options.engine,
            ...(scope ? { routes: scope } : {}),
            ...(options.stream ? { stream: true } : {}),
            ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
            ...(options.shard ? { shard: options.shard } : {}),
          },
          loaded,
        );
  const untested = uncoveredRoutes(headTable, loaded.specs).filter((r) => !scope || scope.has(r));
  const report = buildCompatibilityReport(run, {
    routeOrder: headTable.routes.map((r) => r.id),
    untestedRoutes: untested,
    root: top,
  });

  const failures = formatFailures(run.cells);
  if (failures) out(`\n${failures}\n`);
  for (const route of untested)
    out(`✗ route ${route} is not tested: no provider spec in specs/providers/ resolves to it\n`);
  const failingCells = report.routes.flatMap((r) =>
    r.matrix.filter((m) => m.status === 'fail').map((m) => `${r.route} × ${m.behaviour}`),
  );
  out(
    `\n${STATUS_SYMBOL[report.summary.verdict]} ${report.summary.routes} route(s) checked, ${report.summary.cells.total} cells: ${describeCounts(report.summary.cells)}` +
      `${failingCells.length ? ` — failing: ${failingCells.join(', ')}` : ''}${untested.length ? ` — untested: ${untested.join(', ')}` : ''}\n`,
  );
  if (harmFails) out(`✗ the change harms a provider by its spec (see "harm of this change" above)\n`);

  if (options.junit) {
    const file = resolve(cwd, options.junit);
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, renderJunit(report));
  }
  const diff = changes.length ? changes.map((c) => `- ${c.text}`).join('\n') : '- no change';
  const gateMarkdown = `### Route table: \`${options.base}\` → working tree\n\n${diff}\n\n${renderMarkdown(report, options.htmlUrl ? { htmlUrl: options.htmlUrl } : {})}\n`;
  if (options.stepSummary) appendFileSync(options.stepSummary, gateMarkdown);
  if (options.outDir) {
    const dir = resolve(cwd, options.outDir);
    writeReport(report, dir, { root: top, ...(options.htmlUrl ? { htmlUrl: options.htmlUrl } : {}) });
    writeFileAtomic(join(dir, 'gate.md'), gateMarkdown);
  }
  if (options.githubActions) {
    for (const line of annotations(report, changes, headTable, readFileSync(headFile, 'utf8'), relPosix))
      out(line + '\n');
  }
  return {
    failed: report.summary.verdict === 'fail' || harmFails,
    changes,
    ...(scope ? { scope: [...scope] } : {}),
    report,
    routesPath: headFile,
    routeOrder: headTable.routes.map((r) => r.id),
    baseCommit: sha,
    items: matrixItems(loaded, scope),
    harmFails,
  };
}

/** One ::error per failing or untested route (::warning per warning one), on the line of the table change that concerns it. */
function annotations(
  report: CompatibilityReport,
  changes: RouteChange[],
  head: { routes: { id: string }[] },
  text: string,
  file: string,
): string[] {
  const lines = jsonPointerLines(text);
  const where = (route: string): { line: number; cause: string } => {
    const own = changes.filter((c) => c.route === route && c.behavioural);
    if (own.length > 0)
      return {
        line: lineOfPointer(lines, own[0]!.pointer),
        cause: `changed here: ${own.map((c) => c.text).join('; ')}`,
      };
    const i = head.routes.findIndex((r) => r.id === route);
    return {
      line: lineOfPointer(lines, `/routes/${i}/id`),
      cause: 'no table change on this route itself (its targets moved, or the engine/specs changed)',
    };
  };
  const out: string[] = [];
  for (const row of report.routes) {
    const failing = row.matrix.filter((m) => m.status === 'fail');
    if (failing.length === 0) continue;
    const first = decisionsOf(report, row.route, failing[0]!).find((d) => d.status === 'fail')!;
    const { line, cause } = where(row.route);
    out.push(
      errorAnnotation(
        file,
        line,
        `reasoning-replay: route ${row.route}`,
        `route ${row.route} fails ${failing.map((m) => m.behaviour).join(', ')}; ${cause}. First failure: ${first.scenario} on ${first.target}: ${summarizeDetail(first.detail, 400)}`,
      ),
    );
  }
  // A warning cell (a contested rule answered leniently, an extra round trip) does not fail the gate,
  // but a reviewer should see it on the line that caused it.
  for (const row of report.routes) {
    const warning = row.matrix.filter((m) => m.status === 'warn');
    if (warning.length === 0 || row.matrix.some((m) => m.status === 'fail')) continue;
    const first = decisionsOf(report, row.route, warning[0]!).find((d) => d.status === 'warn');
    const { line, cause } = where(row.route);
    out.push(
      warningAnnotation(
        file,
        line,
        `reasoning-replay: route ${row.route}`,
        `route ${row.route} warns on ${warning.map((m) => m.behaviour).join(', ')}; ${cause}.${first ? ` First warning: ${first.scenario} on ${first.target}: ${summarizeDetail(first.detail, 400)}` : ''}`,
      ),
    );
  }
  for (const route of report.summary.untestedRoutes) {
    const { line, cause } = where(route);
    out.push(
      errorAnnotation(
        file,
        line,
        `reasoning-replay: route ${route}`,
        `route ${route} is not tested: no provider spec in specs/providers/ resolves to it; ${cause}`,
      ),
    );
  }
  return out;
}
