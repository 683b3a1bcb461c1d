import { join, relative } from 'node:path';
import { projectRoot } from '../../../shared/project-root.js';
import { generateReport } from '../../services/report/generate-report.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import { reportFromLog } from '../../services/run-report/report-from-log.js';
import { renderClientMarkdown } from '../../services/run-report/render-client-report.js';
import { writeClientReport } from '../../services/run-report/write-client-report.js';
import { runReport } from '../../services/run-report/run-report.js';
import { renderRunHtml } from '../../services/run-report/render-run-html.js';
import { writeReport } from '../../services/report/write-report.js';
import { runEngineFaults } from '../../services/engine-faults/run-engine-faults.js';
import { loadMatrixInputs } from '../../services/matrix/run-matrix.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { reportSummaryLine } from '../../services/report/summary-line.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { progressLine } from '../progress.js';

export const reportCommand = defineCommand({
  command: 'report',
  describe:
    'Write the compatibility report (compatibility.json/.md/.html and junit.xml): route x behaviour, from the matrix or a serve log',
  builder: (y) =>
    y
      .option('out', {
        type: 'string',
        describe:
          'directory to write into (default: reports/ for the matrix; with --from-log nothing is written unless --out is given, the summary goes to stdout)',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table to run the matrix on',
      })
      .option('html-url', {
        type: 'string',
        describe:
          'where CI publishes compatibility.html (an artifact link): the markdown report links its closing pointer there',
      })
      .option('from-log', {
        type: 'string',
        describe:
          'judge a client from a `serve --log` / `run --log` JSON-lines file: cells per client x provider x behaviour, exit 1 when one fails; with --out also run-report.html (failures first, each request’s carriers wanted vs sent)',
      })
      .option('faults', {
        type: 'boolean',
        default: false,
        describe:
          'also run this project’s engine under each fault of specs/faults.json, per route, through mocks that inject it: a "recovers from faults" section (a few seconds more)',
      })
      .option('merge', {
        type: 'string',
        conflicts: 'from-log',
        describe:
          'join the result files of `check --shard i/N` (or `run --shard i/N`) found in this folder into the reports, and the exit code, one unsharded run gives; refuses (exit 2) a missing, repeated or foreign shard',
      })
      .example('$0 report', 'regenerate the committed sample in reports/')
      .example('$0 report --merge shards --out reports', 'join the shards of a CI matrix (docs/ci.md)')
      .example('$0 report --out /tmp/r --from-log serve.jsonl', 'judge a black-box agent from what the mocks saw')
      .epilog(
        'Files are written atomically (temp + rename); compatibility.json is checked against specs/schema/compatibility.schema.json first.\n' +
          'The report carries no timestamps, so the committed sample regenerates byte for byte.\n' +
          'Exit codes: 0 written and no cell fails (warnings alone included), 1 written and a cell fails (or a route is untested); with --from-log the same for the client cells; 2 bad input.',
      ),
  async run(args) {
    if (args.merge !== undefined) {
      const { mergeShards } = await import('../../commands/merge-shards/merge-shards-command.js');
      return mergeShards(args.merge, {
        ...(args.out !== undefined ? { out: args.out } : {}),
        ...(args['html-url'] ? { htmlUrl: args['html-url'] } : {}),
      });
    }
    const fromLog = args['from-log'];
    if (fromLog) {
      // A report about someone's client: never into the checkout's reports/ unless --out says so.
      const { report: clientReport, entries, specs } = reportFromLog(fromLog);
      if (args.out)
        for (const file of writeClientReport(
          clientReport,
          args.out,
          undefined,
          undefined,
          renderRunHtml(runReport(entries, specs)),
        ))
          process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
      else process.stdout.write(renderClientMarkdown(clientReport));
      const s = clientReport.summary;
      process.stdout.write(
        `${s.verdict === 'pass' ? '✓' : s.verdict === 'warn' ? '!' : '✗'} ${clientReport.clients.length} client(s), ${s.requests} requests: ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.na} n/a, ${s.notObservable} not observable\n`,
      );
      return s.verdict === 'fail' ? EXIT_VIOLATION : EXIT_OK;
    }
    let report;
    {
      const progress = progressLine('running cell');
      report = await generateReport({
        routesFile: args.routes,
        engine: builtInEngine,
        onCell: (done, total) => progress.update(done, total),
      });
      progress.done();
    }
    if (args.faults) {
      const inputs = loadMatrixInputs({ routesFile: args.routes });
      report = {
        ...report,
        recoversFromFaults: await runEngineFaults({
          engine: builtInEngine,
          specs: inputs.specs,
          fixtures: inputs.fixtures,
          table: inputs.table,
        }),
      };
    }
    const files = writeReport(
      report,
      args.out ?? join(projectRoot(), 'reports'),
      args['html-url'] ? { htmlUrl: args['html-url'] } : {},
    );
    for (const file of files) process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
    process.stdout.write(reportSummaryLine(report));
    // The README's contract: a failing cell exits 1, so `report` can gate a CI step as `check` does.
    return report.summary.verdict === 'fail' ? EXIT_VIOLATION : EXIT_OK;
  },
});
