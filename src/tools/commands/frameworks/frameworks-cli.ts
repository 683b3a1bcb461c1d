/**
 * `npm run frameworks`: the agent framework matrix of specs/frameworks.json run through `run`
 * (framework@version × provider × streamed and not, and every bug/fix pair), written to
 * reports/frameworks.{json,md}. Exit 0 when every pair is judged as its report says (the bug version
 * fails with the rule, the fixed one passes), 1 when one is not, 2 on bad input. A framework that fails
 * a provider is the matrix's finding, not an error of this command; so is a row poisoned by a fault (the faults
 * column: each row streamed under each fault of specs/faults.json that applies to its provider).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { InputError } from '../../../shared/errors/input-error.js';
import { projectRoot } from '../../../shared/project-root.js';
import { assertValid } from '../../../shared/validation/validate.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadFrameworkMatrix } from '../../services/framework-results/framework-matrix.js';
import {
  buildFrameworksReport,
  FAULT_SYMBOL,
  renderFrameworksMarkdown,
  VERDICT_SYMBOL,
} from '../../services/framework-results/frameworks-report.js';
import { runFrameworks } from './run-frameworks.js';

export async function cli(argv: string[]): Promise<number> {
  const args = await yargs(argv)
    .scriptName('npm run frameworks --')
    .usage('$0 [--fast] [--framework ID…] [--out DIR]')
    .option('fast', { type: 'boolean', default: false, describe: 'only the rows and pairs marked fast, not streamed' })
    .option('framework', { type: 'array', string: true, default: [] as string[], describe: 'only these framework ids' })
    .option('out', {
      type: 'string',
      default: join(projectRoot(), 'reports'),
      describe: 'write frameworks.{json,md} here',
    })
    .option('concurrency', { type: 'number', default: 2, describe: 'agents run at once' })
    .option('faults', {
      type: 'boolean',
      default: true,
      describe:
        'the faults column: each row streamed under each fault of specs/faults.json for its provider (--no-faults: none)',
    })
    .strict()
    .help()
    .parseAsync();
  const providers = loadProviderSpecs().map((s) => s.id);
  const matrix = loadFrameworkMatrix(providers);
  const known = new Set(matrix.frameworks.map((f) => f.id));
  for (const id of args.framework)
    if (!known.has(id)) throw new InputError('--framework', '', `no framework "${id}"`, [...known].join(', '));
  const rows = await runFrameworks(matrix, {
    fast: args.fast,
    only: args.framework,
    concurrency: args.concurrency,
    faults: args.faults,
    onFault: (key, cell, done, total) =>
      process.stdout.write(
        `[${done}/${total}] ${FAULT_SYMBOL[cell.outcome]} ${key}: ${cell.outcome}${cell.damage ? ` at ${cell.damage.request} (${cell.damage.what})` : ''}\n`,
      ),
    onRow: (row, done, total) =>
      process.stdout.write(
        `[${done}/${total}] ${VERDICT_SYMBOL[row.verdict]} ${row.key} (${row.package}@${row.packageVersion}): ${row.verdict}${row.rule ? ` ${row.rule}` : ''}\n`,
      ),
  });
  const report = buildFrameworksReport(matrix, rows);
  // What the compatibility report reads back is checked as it is written.
  assertValid(report, 'frameworks-report.schema.json', join(args.out, 'frameworks.json'));
  mkdirSync(args.out, { recursive: true });
  writeFileSync(join(args.out, 'frameworks.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(args.out, 'frameworks.md'), renderFrameworksMarkdown(report));
  const s = report.summary;
  process.stdout.write(
    `${s.frameworks} frameworks × ${s.providers} providers, ${s.rows} runs: ${s.verdicts.pass} pass, ${s.verdicts.warn} warn, ${s.verdicts.fail} fail, ${s.verdicts['agent-failed']} agent failed, ${s.verdicts.skipped} skipped; pairs right ${s.pairsRight}/${s.pairs}; under faults ${s.faults?.survives ?? 0} survive, ${s.faults?.poisoned ?? 0} poisoned, ${s.faults?.['gave-up'] ?? 0} gave up, ${s.faults?.['not-injected'] ?? 0} not injected. Wrote ${join(args.out, 'frameworks.md')}\n`,
  );
  for (const r of rows.filter((x) => x.pair && !x.pair.met))
    process.stdout.write(
      `✗ pair ${r.pair!.id}: ${r.key} expected ${r.pair!.expected}, got ${r.verdict}${r.rule ? ` ${r.rule}` : ''}: ${r.reason}\n`,
    );
  return s.pairsRight === s.pairs ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      if (err instanceof InputError) {
        process.stderr.write(`frameworks: ${err.message}\n`);
        process.exitCode = 2;
      } else throw err;
    },
  );
}
