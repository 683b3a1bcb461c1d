import type { Argv } from 'yargs';

/**
 * One CLI command: yargs options plus a `run` that returns the exit code. Exit codes are part of
 * the contract: 0 ok, 1 a conformance violation (or a failed action), 2 bad input.
 */
export interface CliCommand<A = Record<string, unknown>> {
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv<A>;
  run: (args: A) => Promise<number> | number;
}

export const EXIT_OK = 0;
export const EXIT_VIOLATION = 1;
export const EXIT_BAD_INPUT = 2;

/** Identity helper that keeps each command's argument type checked against its builder. */
export function defineCommand<A>(command: CliCommand<A>): CliCommand<A> {
  return command;
}
