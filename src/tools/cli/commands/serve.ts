import { mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadMatrixInputs } from '../../services/matrix/run-matrix.js';
import { selectFaults } from '../../../shared/faults/fault-catalogue.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { DEFAULT_SERVE_HEADER_TIMEOUT_MS, startServe } from '../../services/serve/start-serve.js';
import { DEFAULT_MAX_BYTES_IN_FLIGHT } from '../../services/serve/bytes-in-flight.js';
import { requestLine, ServeTally } from '../../services/serve/request-line.js';
import { BatchedLines } from '../../services/serve/batched-lines.js';
import { asFileWriteError } from '../../../shared/errors/file-write-error.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';

export const serveCommand = defineCommand({
  command: 'serve',
  describe:
    'Serve the provider mocks over HTTP on 127.0.0.1 (one base path per provider) and log every request with its verdict',
  builder: (y) =>
    y
      .option('port', {
        type: 'number',
        default: 8787,
        describe: 'port on 127.0.0.1 (0 picks a free one; the URL is printed)',
      })
      .option('log', {
        type: 'string',
        describe: 'append one JSON line per request here (default: stdout); `report --from-log FILE` reads it',
      })
      .option('scenario', {
        type: 'string',
        describe:
          'scenario whose fixtures answer requests without an x-reasoning-replay-scenario header (default: follow the client: call one of its own tools, then answer)',
      })
      .option('log-bodies', {
        type: 'boolean',
        default: false,
        describe: 'put each request body in its log line, credentials redacted',
      })
      .option('seed', {
        type: 'number',
        default: 0,
        describe: 'seed for the tool arguments generated in follow mode (same seed, same answers)',
      })
      .option('run-id', {
        type: 'string',
        describe: "name this server's requests in the log (a request's x-reasoning-replay-run header wins)",
      })
      .option('pace', {
        type: 'number',
        default: 0,
        describe: 'stream pacing: 1 replays recorded timing, 0 sends events back to back',
      })
      .option('quiet', {
        type: 'boolean',
        default: false,
        describe: 'print no line per request on stderr (the log and the summary at shutdown are still written)',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table the log names routes from',
      })
      .option('header-timeout', {
        type: 'number',
        default: DEFAULT_SERVE_HEADER_TIMEOUT_MS,
        describe:
          'ms a client has to send a request’s headers: later, an HTTP/1.1 request is answered 408 and its connection closed; a connection with no request line (or HTTP/2 preface) by then is closed',
      })
      .option('max-bytes-in-flight', {
        type: 'number',
        default: DEFAULT_MAX_BYTES_IN_FLIGHT,
        defaultDescription: '33554432 (32 MiB)',
        describe:
          'request-body bytes held at once across all requests; a request beyond it is answered 503 with Retry-After (each body alone is limited to 32 MiB)',
      })
      .option('faults', {
        type: 'string',
        describe:
          'inject these faults of specs/faults.json (comma-separated, or all) into the follow-mode answers, each once, where the seed says; the agent\u2019s later requests are judged under recovers-from-faults',
      })
      .option('strict', {
        type: 'boolean',
        default: false,
        describe:
          'contested rules refuse with the provider’s error (those a recording shows accepted excepted); by default they are accepted and logged as warnings (`lenient` findings)',
      })
      .example(
        '$0 serve --port 8787 --scenario tool-call-with-reasoning --log serve.jsonl',
        'then point an agent at http://127.0.0.1:8787/deepseek (its base URL)',
      )
      .epilog(
        "Paths are /<provider spec id> + the provider's own API path, e.g. /deepseek/chat/completions, /anthropic/v1/messages; GET / lists them.\n" +
          'Any model id is accepted; a repeated /v1 or /v1beta (an SDK given the bare origin) is forgiven. See docs/judge-your-agent.md.\n' +
          "A request that breaks a provider rule gets that provider's own error status and body; every answer carries x-reasoning-replay-findings.\n" +
          'GET /findings.json?since=N answers the requests that broke a rule or warned, with each rule’s sources (JSON; the pytest plugin reads it).\n' +
          'Each request is also one line on stderr with its verdict (--quiet silences them); on stopping, a summary line.\n' +
          'Stops on Ctrl-C (SIGINT) or SIGTERM. Exit codes: 0 stopped, 2 bad input (port in use, bad specs).',
      ),
  async run(args) {
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
      throw new InputError('--port', '', `"${args.port}" is not a port`, 'use 0-65535 (0 picks a free port)');
    const headerTimeout = args['header-timeout'];
    if (!Number.isInteger(headerTimeout) || headerTimeout <= 0)
      throw new InputError('--header-timeout', '', `"${headerTimeout}" is not a positive number of milliseconds`);
    const maxInFlight = args['max-bytes-in-flight'];
    if (!Number.isInteger(maxInFlight) || maxInFlight <= 0)
      throw new InputError('--max-bytes-in-flight', '', `"${maxInFlight}" is not a positive number of bytes`);
    const loaded = loadMatrixInputs({ routesFile: args.routes });
    if (args.scenario && !loaded.scenarios.some((s) => s.id === args.scenario)) {
      throw new InputError(
        '--scenario',
        '',
        `no scenario "${args.scenario}"`,
        `one of ${loaded.scenarios.map((s) => s.id).join(', ')}`,
      );
    }
    const logFile = args.log ? resolve(args.log) : undefined;
    if (logFile) mkdirSync(dirname(logFile), { recursive: true });
    // One descriptor for the server's life: a line per request without an open/close per request.
    const fd = logFile ? openSync(logFile, 'a') : undefined;
    // A log line that cannot be written (disk full mid-run) is a lost verdict: serve stops and says why (exit 1).
    let logFailed: string | undefined;
    let stopServing: (() => void) | undefined;
    const write = (text: string) => {
      if (fd === undefined) return void process.stdout.write(text);
      try {
        writeSync(fd, text);
      } catch (err) {
        logFailed ??= (asFileWriteError(err, logFile) as Error).message;
        stopServing?.();
      }
    };
    // The lines of the requests answered in one turn of the event loop go out in one write (batched-lines.ts).
    const logLines = new BatchedLines(write);
    const requestLines = new BatchedLines((text) => void process.stderr.write(text));
    const tally = new ServeTally();
    let running;
    try {
      running = await startServe({
        port: args.port,
        headerTimeoutMs: headerTimeout,
        maxBytesInFlight: maxInFlight,
        specs: loaded.specs,
        fixtures: loaded.fixtures,
        table: loaded.table,
        pace: args.pace,
        logBodies: args['log-bodies'],
        seed: args.seed,
        ...(args.faults !== undefined ? { faults: selectFaults(args.faults) } : {}),
        ...(args.strict ? { strict: true } : {}),
        ...(args['run-id'] ? { runId: args['run-id'] } : {}),
        ...(args.scenario ? { defaultScenario: args.scenario } : {}),
        log: (entry) => {
          tally.add(entry);
          if (!args.quiet) void requestLines.add(requestLine(entry) + '\n');
          return logLines.add(JSON.stringify(entry) + '\n');
        },
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new InputError(
          '--port',
          '',
          `port ${args.port} on 127.0.0.1 is in use`,
          'pick another with --port, or --port 0 for any free port',
        );
      throw err;
    }
    process.stderr.write(
      `reasoning-replay serve: listening on ${running.url} (${running.paths.length} endpoints, e.g. ${running.url}${running.paths[0] ?? ''}); log: ${logFile ?? 'stdout'}\n`,
    );
    await new Promise<void>((done) => {
      const stop = () => done();
      stopServing = stop;
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await running.close();
    logLines.flush();
    requestLines.flush();
    process.stderr.write(`reasoning-replay serve: stopped after ${tally.summary()}\n`);
    if (logFailed) {
      process.stderr.write(`reasoning-replay serve: stopped, the log cannot be written: ${logFailed}\n`);
      return EXIT_VIOLATION;
    }
    return EXIT_OK;
  },
});
