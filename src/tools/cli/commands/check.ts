import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import {
  countRun,
  formatFailures,
  formatHarm,
  formatMatrix,
  formatWarnings,
} from '../../services/report/format-matrix.js';
import { formatNotJudged } from '../../services/matrix/not-judged-lines.js';
import { uncoveredRoutes } from '../../../judge/conformance/route-coverage.js';
import { loadMatrixInputs, matrixItems, runMatrix } from '../../services/matrix/run-matrix.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { checkScope } from '../../services/matrix/check-scope.js';
import { writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { progressLine } from '../progress.js';
import { describeCounts } from '../../services/report/status-symbols.js';
import { agreementSummary, realWorldAgreement } from '../../services/real-world-cases/agreement.js';
import { sectionsBeyondTheMatrix } from '../../services/report/sections-beyond-the-matrix.js';
import { describeShard, parseShard } from '../../services/matrix/shard-spec.js';
import { defaultShardOut, writeShardFile } from '../../services/shards/shard-file.js';
import { checkShardResult } from '../../services/shards/check-shard-result.js';

export const checkCommand = defineCommand({
  command: 'check',
  describe: 'Run every scenario against every provider mock through the route table; exit 1 on a violation',
  builder: (y) =>
    y
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table to check',
      })
      .option('stream', {
        type: 'boolean',
        default: false,
        describe: 'ask for streamed answers and read them through each family’s stream accumulator',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'print only failures and the summary' })
      .option('strict', {
        type: 'boolean',
        default: false,
        describe:
          'the mocks refuse contested rules (those a recording shows accepted excepted) and warnings (an extra round trip through the unknown-field fallback) count as failures: exit 1',
      })
      .option('timeout', {
        type: 'number',
        default: 30_000,
        describe: 'deadline per call in ms, body included: a stalled answer fails its cell instead of hanging the gate',
      })
      .option('base', {
        type: 'string',
        describe:
          "git ref to compare with: prints the route-table diff in words and runs the routes it can affect (all routes when src/, specs/providers, specs/scenarios, specs/schema, fixtures/ or the package files changed). The repository is the current directory's git toplevel; --routes defaults to its specs/routes.json. The working tree is compared as it is, uncommitted edits included",
      })
      .option('junit', {
        type: 'string',
        describe:
          'also write JUnit XML here (one testsuite per route, one testcase per route x behaviour; with --engine-io own, one testsuite per target run)',
      })
      .option('html-url', {
        type: 'string',
        implies: 'base',
        describe:
          'with --base under GitHub Actions: where CI publishes compatibility.html, linked from the step summary',
      })
      .option('out', {
        type: 'string',
        implies: 'base',
        describe:
          "with --base: write the gate's report into this directory: compatibility.json/.md/.html and junit.xml of the routes it ran, and gate.md (the diff in words and the markdown report, as the GitHub Action comments it)",
      })
      .option('engine', {
        type: 'string',
        describe:
          'judge an external request builder instead of the built-in engine: a shell command speaking the JSON-lines protocol of docs/judge-your-agent.md',
      })
      .option('engine-io', {
        type: 'string',
        choices: ['requests', 'own'] as const,
        default: 'requests' as const,
        describe:
          'with --engine: `requests` (the engine builds requests, the harness sends them) or `own` (the engine sends its own requests to provider mocks the harness starts, and is judged from their traffic: docs/judge-your-agent.md)',
      })
      .option('provider', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'only the routes these provider specs resolve to (repeatable)',
      })
      .option('require-clean', {
        type: 'boolean',
        implies: 'base',
        describe:
          'with --base: refuse (exit 2) when the working tree has uncommitted changes, to gate committed state only',
      })
      .option('shard', {
        type: 'string',
        describe:
          'run only shard i of N (e.g. 2/4) of the matrix, dealt by each scenario run’s key, and write its result file; `report --merge DIR` joins the N files into the reports one unsharded run writes',
      })
      .option('shard-out', {
        type: 'string',
        implies: 'shard',
        describe: 'where --shard writes its result file (default: shards/check-shard-<i>-of-<N>.json)',
      })
      .example('$0 check', 'gate the bundled route table')
      .example('$0 check --routes my-routes.json', 'gate an edited copy')
      .example(
        '$0 check --base origin/main --junit reports/junit-gate.xml',
        'gate a pull request: what changed since main, and does it still conform',
      )
      .example('$0 check --shard 2/4 --shard-out shards/2.json', 'the second of four CI machines (docs/ci.md)')
      .epilog(
        'With GITHUB_ACTIONS=true, --base also prints ::error annotations on the line of specs/routes.json that introduced each failing route,\n' +
          'and appends the diff in words and the markdown report to $GITHUB_STEP_SUMMARY when it is set.\n' +
          'Exit codes: 0 every cell conforms (warnings alone included), 1 a violation (or a warning with --strict) (failing cells listed), 2 bad input (unknown ref, no route table at the ref, not a git repository, an invalid table).',
      ),
  async run(args) {
    if (args.engine !== undefined && args.base)
      throw new InputError(
        '--engine',
        '',
        'cannot be combined with --base',
        'gate a route-table change with the built-in engine, or judge an engine on one table',
      );
    if (!(args.timeout > 0))
      throw new InputError('--timeout', '', `must be a positive number of milliseconds, got ${args.timeout}`);
    if (args['engine-io'] === 'own') {
      if (args.engine === undefined)
        throw new InputError('--engine-io', '', 'own needs --engine', 'pass the command that starts your engine');
      if (args.shard !== undefined)
        throw new InputError('--engine-io', '', 'own cannot be sharded', 'run it without --shard');
      // Own I/O runs every target plain and streamed already: a flag that changed nothing would mislead.
      if (args.stream)
        throw new InputError(
          '--stream',
          '',
          'does not apply with --engine-io own: every target runs plain and streamed',
          'drop --stream',
        );
      const { checkOwnIo } = await import('../../services/own-io-engine/check-own-io.js');
      return checkOwnIo({
        command: args.engine,
        routesFile: args.routes,
        providers: args.provider,
        timeoutMs: args.timeout,
        strict: args.strict,
        quiet: args.quiet,
        ...(args.junit ? { junit: args.junit } : {}),
      });
    }
    const shard = args.shard !== undefined ? parseShard(args.shard) : undefined;
    const shardOut = shard ? (args['shard-out'] ?? defaultShardOut('check', shard)) : undefined;
    // The gate, the external-engine runner and the JUnit renderer load only when their option asks
    // for them: the plain gate run on the bundled table should not pay for their modules.
    if (args.base) {
      const { runGate } = await import('../../commands/gate/run-gate.js');
      const result = await runGate({
        base: args.base,
        engine: builtInEngine,
        // The package's own table is the default only outside --base; with --base the repository's table is gated.
        ...(args.routes !== defaultRoutesFile() ? { routes: args.routes } : {}),
        ...(args.junit ? { junit: args.junit } : {}),
        ...(args['html-url'] ? { htmlUrl: args['html-url'] } : {}),
        ...(args.out ? { outDir: args.out } : {}),
        requireClean: args['require-clean'] === true,
        githubActions: process.env.GITHUB_ACTIONS === 'true',
        ...(process.env.GITHUB_ACTIONS === 'true' && process.env.GITHUB_STEP_SUMMARY
          ? { stepSummary: process.env.GITHUB_STEP_SUMMARY }
          : {}),
        stream: args.stream,
        timeoutMs: args.timeout,
        ...(shard ? { shard } : {}),
      });
      if (shard && shardOut) {
        const file = writeShardFile(
          shardOut,
          checkShardResult({
            shard,
            report: result.report,
            routesPath: result.routesPath,
            routeOrder: result.routeOrder,
            items: result.items,
            options: { strict: false, stream: args.stream, providers: [] },
            base: { ref: args.base, commit: result.baseCommit },
            harmFails: result.harmFails,
          }),
        );
        process.stdout.write(
          `shard ${describeShard(shard)}: ${result.report.runs.length} of ${result.items.length} scenario runs; wrote ${relative(process.cwd(), file) || file}\n`,
        );
      }
      return result.failed ? EXIT_VIOLATION : EXIT_OK;
    }
    const loaded = loadMatrixInputs({ routesFile: args.routes });
    const scope = checkScope(loaded, args.provider, args.engine);
    const progress = progressLine('checking cell');
    // An external engine shakes hands first: one that does not answer is bad input (exit 2) before any cell runs.
    const external = args.engine
      ? await (
          await import('../../services/engine-adapters/external-engine.js')
        ).startExternalEngine({
          command: args.engine,
          timeoutMs: args.timeout,
        })
      : undefined;
    let run;
    try {
      run = await runMatrix(
        {
          routesFile: args.routes,
          stream: args.stream,
          timeoutMs: args.timeout,
          ...(args.strict ? { strict: true } : {}),
          onCell: (done, total) => progress.update(done, total),
          ...(scope ? { routes: scope } : {}),
          ...(shard ? { shard } : {}),
          engine: external ?? builtInEngine,
          // The harm judge reads this project's table against the specs: nothing an external engine does.
          ...(external ? { harm: false as const } : {}),
        },
        loaded,
      );
    } finally {
      await external?.close();
    }
    progress.done();
    if (external) process.stdout.write(`engine under test: ${args.engine}\n`);
    const counts = countRun(run);
    const uncovered = scope || external ? [] : uncoveredRoutes(loaded.table, loaded.specs);
    if (!args.quiet) process.stdout.write(formatMatrix(run) + '\n\n');
    const harm = formatHarm(run);
    if (harm) process.stdout.write(harm + '\n\n');
    const failures = formatFailures(run.cells);
    if (failures) process.stdout.write(failures + '\n\n');
    // Another team's engine reads why each accepted choice is a warning, not a failure (decision 0102).
    const warnings = external ? formatWarnings(run.cells) : '';
    if (warnings) process.stdout.write(warnings + '\n\n');
    for (const route of uncovered) {
      process.stdout.write(
        `✗ route ${route} is not tested: no provider spec in specs/providers/ resolves to it (add one with its target provider, host and model)\n`,
      );
    }
    // The report a shard writes is built exactly as the JUnit's: `report --merge` rebuilds the whole one from them.
    const report =
      args.junit || shard
        ? (await import('../../services/report/build-compatibility-report.js')).buildCompatibilityReport(run, {
            routeOrder: loaded.table.routes.map((r) => r.id),
            untestedRoutes: uncovered,
          })
        : undefined;
    if (args.junit && report) {
      const { renderJunit } = await import('../../services/report/render-junit.js');
      mkdirSync(dirname(resolve(args.junit)), { recursive: true });
      writeFileAtomic(args.junit, renderJunit(report));
    }
    const file = relative(process.cwd(), run.routesFile) || run.routesFile;
    const notJudged = formatNotJudged(run);
    if (notJudged) process.stdout.write(notJudged + '\n');
    process.stdout.write(
      // An external engine keeps its own table: this project's route count says nothing about it.
      `${external ? `engine ${args.engine}, judged against the provider specs and the expected routes of ${file}` : `${file}: ${counts.routes} routes`}, ${counts.targets} provider targets, ${counts.scenarios} scenarios, ${counts.cells} scenario runs: ` +
        `${describeCounts(counts)}${uncovered.length ? `, ${uncovered.length} route(s) untested` : ''}${run.notJudged?.length ? `; not judged: ${run.notJudged.map((n) => n.operation).join(', ')} (the engine does not implement them)` : ''} (${run.durationMs} ms)\n`,
    );
    // Informational (issue 11): how the mocks agree with real providers' recorded answers; never changes the exit code.
    // The same provider specs and fixture store the matrix ran on (loading and validating them again cost a quarter
    // CPU-second).
    const agreement = await realWorldAgreement({ specs: loaded.specs, fixtures: loaded.fixtures });
    process.stdout.write(agreementSummary(agreement) + '\n');
    if (shard && shardOut && report) {
      const items = matrixItems(loaded, scope);
      const file = writeShardFile(
        shardOut,
        checkShardResult({
          shard,
          report,
          routesPath: loaded.routesFile,
          routeOrder: loaded.table.routes.map((r) => r.id),
          items,
          options: {
            strict: args.strict,
            stream: args.stream,
            ...(args.engine !== undefined ? { engine: args.engine } : {}),
            providers: [...args.provider].sort(),
          },
          ...sectionsBeyondTheMatrix(loaded.specs, agreement),
          ...(run.notJudged ? { notJudged: run.notJudged } : {}),
        }),
      );
      process.stdout.write(
        `shard ${describeShard(shard)}: ${run.cells.length} of ${items.length} scenario runs; wrote ${relative(process.cwd(), file) || file}\n`,
      );
    }
    if (counts.warn > 0 && args.strict)
      process.stdout.write(`--strict: ${counts.warn} scenario run(s) with warnings, counted as violations\n`);
    const unjudged = run.notJudged?.length ?? 0;
    if (unjudged > 0 && args.strict)
      process.stdout.write(`--strict: ${unjudged} operation(s) not judged, counted as violations\n`);
    return counts.fail > 0 || uncovered.length > 0 || (args.strict && (counts.warn > 0 || unjudged > 0))
      ? EXIT_VIOLATION
      : EXIT_OK;
  },
});
