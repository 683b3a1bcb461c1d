import type { CliCommand } from '../cli-command.js';

/**
 * Every command the CLI offers, one file each, loaded only when it runs: a command's module graph
 * (msw, SQLite, the report renderers, every family) is most of the CLI's start-up time, and a run
 * needs one of them. `name` is the first word of the command's own `command` string (a test holds
 * the two together); add new commands to this list.
 */
export interface CommandEntry {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  load: () => Promise<CliCommand<any>>;
}

export const commands: readonly CommandEntry[] = [
  { name: 'build-request', load: async () => (await import('./build-request.js')).buildRequestCommand },
  { name: 'check', load: async () => (await import('./check.js')).checkCommand },
  { name: 'report', load: async () => (await import('./report.js')).reportCommand },
  { name: 'serve', load: async () => (await import('./serve.js')).serveCommand },
  {
    name: 'synthesize-fixtures',
    load: async () => (await import('./synthesize-fixtures.js')).synthesizeFixturesCommand,
  },
  { name: 'probe', load: async () => (await import('./probe.js')).probeCommand },
  { name: 'record', load: async () => (await import('./record.js')).recordCommand },
  { name: 'import', load: async () => (await import('./import.js')).importCommand },
  { name: 'sessions', load: async () => (await import('./sessions.js')).sessionsCommand },
  { name: 'replay', load: async () => (await import('./replay.js')).replayCommand },
  { name: 'run', load: async () => (await import('./run.js')).runCommand },
  { name: 'real-world', load: async () => (await import('./real-world.js')).realWorldCommand },
  { name: 'verify', load: async () => (await import('./verify.js')).verifyCommand },
  { name: 'pr-comment', load: async () => (await import('./pr-comment.js')).prCommentCommand },
];

/**
 * The commands a run needs: the one the arguments name (the first word that is not an option; the
 * CLI has no global option that takes a value), or all of them when none is named or the name is
 * unknown, so the top-level help lists every command and a typo gets its suggestion.
 */
export function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
  const named = argv.find((token) => !token.startsWith('-'));
  const entry = commands.find((c) => c.name === named);
  return entry ? [entry] : commands;
}
