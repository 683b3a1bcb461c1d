import yargs, { type MiddlewareFunction } from 'yargs';
import { InputError } from '../../shared/errors/input-error.js';
import { asFileWriteError } from '../../shared/errors/file-write-error.js';
import { FindingsRecordError } from '../../shared/errors/findings-record-error.js';
import { EngineFailedError } from '../../shared/errors/engine-failed-error.js';
import { EXIT_BAD_INPUT } from './cli-command.js';
import { commandsFor } from './commands/index.js';
import { skipHelpCache } from './skip-help-cache.js';

/** Runs the CLI and returns the exit code; never calls process.exit, so tests can call it in-process. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  let parser = yargs(argv)
    .scriptName('reasoning-replay')
    .usage('$0 <command> [options]\n\nConformance harness for reasoning replay across LLM provider routes.')
    .strict()
    .demandCommand(1, 'name a command (reasoning-replay --help lists them)')
    .recommendCommands()
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      process.stderr.write(`reasoning-replay: ${message}\n(run with --help for usage)\n`);
      usageFailed = true;
      code = EXIT_BAD_INPUT;
    });
  parser = skipHelpCache(parser);
  // With exitProcess(false) yargs still calls the handler after a failed validation; it must not run.
  let usageFailed = false;
  // yargs passes itself as the middleware's second argument at run time; its types omit it.
  parser = parser.middleware(refuseEmptyStringOptions(argv) as unknown as MiddlewareFunction);
  for (const c of await Promise.all(commandsFor(argv).map((entry) => entry.load()))) {
    parser = parser.command(c.command, c.describe, c.builder, async (args) => {
      if (!usageFailed) code = await c.run(args);
    });
  }
  try {
    await parser.parseAsync();
  } catch (caught) {
    // A file-system failure anywhere (a full disk, a file where a folder is expected) is one line.
    const err = asFileWriteError(caught);
    // A finding that cannot be read is a harness error: the run was not judged, so it cannot pass or fail.
    // An engine under test that broke the protocol (crash, malformed answer, a read it refused) is the user's side.
    if (err instanceof InputError || err instanceof FindingsRecordError || err instanceof EngineFailedError) {
      process.stderr.write(`reasoning-replay: ${err.message}\n`);
      return EXIT_BAD_INPUT;
    }
    throw err;
  }
  return code;
}

/**
 * `--junit` at the end of a line, or followed by another flag, parses as the empty string (or as
 * the option's default), and the command then skips or redirects the write without a word. No
 * string option of ours is meant to be given empty, so one given with no value is bad input, named.
 */
function refuseEmptyStringOptions(argv: string[]) {
  return (_args: unknown, parser: { getOptions(): { string: string[] } }): void => {
    const stringOptions = new Set(parser.getOptions().string);
    for (const [i, token] of argv.entries()) {
      if (token === '--') return;
      const m = /^--?([^=]+)$/.exec(token);
      if (!m || !stringOptions.has(m[1]!)) continue;
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) {
        throw new InputError(`--${m[1]}`, '', 'needs a value', `e.g. --${m[1]} <value>; see --help`);
      }
    }
  };
}
