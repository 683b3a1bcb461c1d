import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { checkScope } from '../matrix/check-scope.js';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import { formatOwnIo, runOwnIo } from './run-own-io.js';
import { renderOwnIoJunit } from './render-own-io-junit.js';
import { redactText } from '../recorder/redact.js';

export interface CheckOwnIoOptions {
  command: string;
  routesFile: string;
  /** `--provider`: only these targets; empty: every provider spec. */
  providers: readonly string[];
  timeoutMs: number;
  strict: boolean;
  quiet: boolean;
  /** `--junit FILE`: the verdicts as JUnit XML too (render-own-io-junit.ts). */
  junit?: string;
}

/**
 * `check --engine CMD --engine-io own`: runs the engine against the mocks, prints each target's verdict and the
 * summary, and answers the exit code (1 on a failure, or a warning with --strict). An engine error throws
 * (EngineFailedError: exit 2).
 */
export async function checkOwnIo(options: CheckOwnIoOptions): Promise<number> {
  const started = Date.now();
  // The command may carry a key (`--api-key sk-...`): it is named, never printed or written as given.
  const engine = redactText(options.command);
  const loaded = loadMatrixInputs({ routesFile: options.routesFile });
  checkScope(loaded, options.providers, options.command); // bad --provider or an empty command: exit 2
  const targets = options.providers.length
    ? loaded.specs.filter((s) => options.providers.includes(s.id))
    : loaded.specs;
  const results = await runOwnIo({
    command: options.command,
    timeoutMs: options.timeoutMs,
    targets,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
  });
  const shown = options.quiet ? results.filter((r) => r.status === 'fail' || r.status === 'warn') : results;
  const text = formatOwnIo(shown);
  if (text) process.stdout.write(text + '\n\n');
  const count = (s: string) => results.filter((r) => r.status === s).length;
  const declined = results.filter((r) => r.declined).length;
  process.stdout.write(
    `engine ${engine} (own I/O), judged from the mocks' traffic: ${results.length} target runs ` +
      `(${targets.length} provider targets, plain and streamed): ${count('pass')} pass, ${count('warn')} warn, ${count('fail')} fail` +
      `${declined ? `, ${declined} declined by the engine (not judged)` : ''} (${Date.now() - started} ms)\n`,
  );
  if (options.junit) {
    mkdirSync(dirname(resolve(options.junit)), { recursive: true });
    writeFileAtomic(options.junit, renderOwnIoJunit(results, engine));
  }
  const failed = count('fail') > 0 || (options.strict && count('warn') > 0);
  return failed ? 1 : 0;
}
