import { relative } from 'node:path';
import { countRun, formatFailures, formatMatrix } from '../../conformance/format-matrix.js';
import { uncoveredRoutes } from '../../conformance/route-coverage.js';
import { loadMatrixInputs, runMatrix } from '../../conformance/run-matrix.js';
import { defaultRoutesFile } from '../../routes/load-route-table.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { progressLine } from '../progress.js';

export const checkCommand = defineCommand({
  command: 'check',
  describe: 'Run every scenario against every provider mock through the route table; exit 1 on a violation',
  builder: (y) =>
    y
      .option('routes', { type: 'string', default: defaultRoutesFile(), defaultDescription: 'specs/routes.json', describe: 'route table to check' })
      .option('stream', { type: 'boolean', default: false, describe: 'ask for streamed answers and read them through each family’s stream accumulator' })
      .option('quiet', { type: 'boolean', default: false, describe: 'print only failures and the summary' })
      .example('$0 check', 'gate the bundled route table')
      .example('$0 check --routes my-routes.json', 'gate an edited copy')
      .epilog('Exit codes: 0 every cell conforms, 1 a violation (failing cells listed), 2 bad input.'),
  async run(args) {
    const loaded = loadMatrixInputs({ routesFile: args.routes });
    const progress = progressLine('checking cell');
    const run = await runMatrix({ routesFile: args.routes, onCell: (done, total) => progress.update(done, total) }, loaded);
    progress.done();
    const counts = countRun(run);
    const uncovered = uncoveredRoutes(loaded.table, loaded.specs);
    if (!args.quiet) process.stdout.write(formatMatrix(run) + '\n\n');
    const failures = formatFailures(run.cells);
    if (failures) process.stdout.write(failures + '\n\n');
    for (const route of uncovered) {
      process.stdout.write(`✗ route ${route} is not tested: no provider spec in specs/providers/ resolves to it (add one with its target provider, host and model)\n`);
    }
    const file = relative(process.cwd(), run.routesFile) || run.routesFile;
    process.stdout.write(
      `${file}: ${counts.routes} routes, ${counts.targets} provider targets, ${counts.scenarios} scenarios, ${counts.cells} cells — ` +
        `${counts.pass} pass, ${counts.fail} fail, ${counts.na} n/a${uncovered.length ? `, ${uncovered.length} route(s) untested` : ''} (${run.durationMs} ms)\n`,
    );
    return counts.fail > 0 || uncovered.length > 0 ? EXIT_VIOLATION : EXIT_OK;
  },
});
