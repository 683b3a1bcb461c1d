import { join, relative } from 'node:path';
import { projectRoot } from '../../project-root.js';
import { generateReport } from '../../report/generate-report.js';
import { reportFromLog } from '../../serve/report-from-log.js';
import { writeReport } from '../../report/write-report.js';
import { defaultRoutesFile } from '../../routes/load-route-table.js';
import { defineCommand, EXIT_OK } from '../cli-command.js';
import { progressLine } from '../progress.js';

export const reportCommand = defineCommand({
  command: 'report',
  describe: 'Write the compatibility report (compatibility.json/.md/.html and junit.xml): route x behaviour, from the matrix or a serve log',
  builder: (y) =>
    y
      .option('out', { type: 'string', default: join(projectRoot(), 'reports'), defaultDescription: 'reports/', describe: 'directory to write the four files into' })
      .option('routes', { type: 'string', default: defaultRoutesFile(), defaultDescription: 'specs/routes.json', describe: 'route table to run the matrix on' })
      .option('from-log', { type: 'string', describe: 'build the report from a `serve --log` JSON-lines file instead of running the matrix' })
      .example('$0 report', 'regenerate the committed sample in reports/')
      .example('$0 report --out /tmp/r --from-log serve.jsonl', 'judge a black-box agent from what the mocks saw')
      .epilog(
        'Files are written atomically (temp + rename); compatibility.json is checked against specs/schema/compatibility.schema.json first.\n' +
          'The report carries no timestamps, so the committed sample regenerates byte for byte.\n' +
          'Exit codes: 0 written (whatever the verdict; use `check` to gate), 2 bad input.',
      ),
  async run(args) {
    let report;
    const fromLog = args['from-log'];
    if (fromLog) {
      report = reportFromLog(fromLog, { routesFile: args.routes });
    } else {
      const progress = progressLine('running cell');
      report = await generateReport({ routesFile: args.routes, onCell: (done, total) => progress.update(done, total) });
      progress.done();
    }
    const files = writeReport(report, args.out);
    const m = report.summary.matrix;
    for (const file of files) process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
    process.stdout.write(
      `${report.summary.verdict === 'pass' ? '✓' : '✗'} ${report.summary.routes} routes x ${report.behaviours.length} behaviours: ${m.pass} pass, ${m.fail} fail, ${m.na} n/a` +
        `${report.summary.untestedRoutes.length ? `; untested routes: ${report.summary.untestedRoutes.join(', ')}` : ''}\n`,
    );
    return EXIT_OK;
  },
});
