import type { CliCommand } from '../cli-command.js';
import { buildRequestCommand } from './build-request.js';
import { checkCommand } from './check.js';
import { reportCommand } from './report.js';
import { serveCommand } from './serve.js';
import { probeCommand } from './probe.js';
import { recordCommand } from './record.js';
import { importCommand } from './import.js';
import { synthesizeFixturesCommand } from './synthesize-fixtures.js';
import { sessionsCommand } from './sessions.js';
import { replayCommand } from './replay.js';
import { runCommand } from './run.js';
import { realWorldCommand } from '../../real-world/real-world-command.js';

/** Every command the CLI offers, one file each; add new commands to this list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CliCommand<any>[] = [
  buildRequestCommand,
  checkCommand,
  reportCommand,
  serveCommand,
  synthesizeFixturesCommand,
  probeCommand,
  recordCommand,
  importCommand,
  sessionsCommand,
  replayCommand,
  runCommand,
  realWorldCommand,
];
