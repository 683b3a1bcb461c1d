/**
 * `npm run compatcanary`: CompatCanary (npm compatcanary) against every OpenAI-compatible mock over a serve started
 * here, its pass/warn/fail per mock written, dated, to reports/compatcanary.json, which the compatibility report's
 * HTML shows. Exit 0 when it ran; a probe that fails is a figure, not an error of this command.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { projectRoot } from '../../../shared/project-root.js';
import { loadMatrixInputs } from '../../services/matrix/run-matrix.js';
import { startServe } from '../../services/serve/start-serve.js';
import {
  compatCanaryFigures,
  compatCanaryMocks,
  loadCompatCanary,
  scanMock,
} from '../../services/suites/compatcanary-figures.js';

export async function cli(argv: string[]): Promise<number> {
  const args = await yargs(argv)
    .scriptName('npm run compatcanary --')
    .option('out', {
      type: 'string',
      default: join(projectRoot(), 'reports'),
      describe: 'write compatcanary.json here',
    })
    .strict()
    .help()
    .parseAsync();
  const loaded = loadMatrixInputs({});
  const canary = await loadCompatCanary();
  const serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    log: () => {},
  });
  try {
    const scans = [];
    for (const spec of compatCanaryMocks(loaded.specs))
      scans.push({ provider: spec.id, results: (await scanMock(canary, serve.url, spec)).results });
    const figures = compatCanaryFigures(scans, new Date().toISOString().slice(0, 10), canary.version);
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, 'compatcanary.json'), `${JSON.stringify(figures, null, 2)}\n`);
    for (const m of figures.mocks)
      process.stdout.write(`${m.provider.padEnd(22)} pass ${m.pass}  warn ${m.warn}  fail ${m.fail}\n`);
    return 0;
  } finally {
    await serve.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
