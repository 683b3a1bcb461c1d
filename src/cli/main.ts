import yargs from 'yargs';
import { InputError } from '../input/input-error.js';
import { EXIT_BAD_INPUT } from './cli-command.js';
import { commands } from './commands/index.js';

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
  // With exitProcess(false) yargs still calls the handler after a failed validation; it must not run.
  let usageFailed = false;
  for (const c of commands) {
    parser = parser.command(c.command, c.describe, c.builder, async (args) => {
      if (!usageFailed) code = await c.run(args);
    });
  }
  try {
    await parser.parseAsync();
  } catch (err) {
    if (err instanceof InputError) {
      process.stderr.write(`reasoning-replay: ${err.message}\n`);
      return EXIT_BAD_INPUT;
    }
    throw err;
  }
  return code;
}
