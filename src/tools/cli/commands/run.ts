import { relative } from 'node:path';
import { loadMatrixInputs } from '../../services/matrix/run-matrix.js';
import { selectFaults } from '../../../shared/faults/fault-catalogue.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { projectRoot } from '../../../shared/project-root.js';
import { runAgent, type DriveMode, type RunResult } from '../../services/agent-runner/run-agent.js';
import { finishRun } from '../../services/agent-runner/finish-run.js';
import { servedSpecs } from '../../services/agent-runner/served-specs.js';
import { displayPath } from '../../services/report/build-compatibility-report.js';
import { describeShard, parseShard } from '../../services/matrix/shard-spec.js';
import { defaultShardOut, writeShardFile } from '../../services/shards/shard-file.js';
import { positionsOfShard, runShardResult, sessionKeys } from '../../services/shards/run-shard-result.js';
import { redactText } from '../../services/recorder/redact.js';
import { secretsFromEnv } from '../../services/serve/redact-body.js';
import { defineCommand, EXIT_OK } from '../cli-command.js';

export const runCommand = defineCommand({
  command: 'run',
  describe:
    'Judge your agent: start the provider mocks, run the agent with the SDKs’ base-URL variables pointing at them, and judge every request it sends',
  builder: (y) =>
    y
      .option('scenario', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe:
          'answer from this scenario’s script (repeatable; one agent session each). Default: the mocks follow the client and call its own tools',
      })
      .option('provider', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'only these provider mocks (repeatable; default: all)',
      })
      .option('timeout', {
        type: 'number',
        default: 120_000,
        describe:
          'deadline in ms for each agent session (each --each-turn call shares it); past it the agent is killed and the run exits 3',
      })
      .option('junit', { type: 'string', describe: 'write JUnit XML here: one testcase per request the agent sent' })
      .option('out', {
        type: 'string',
        describe:
          'write client-report.json/.md, junit.xml, requests.jsonl and run-report.html (the readable report) into this directory',
      })
      .option('log', {
        type: 'string',
        describe: 'write every request with its verdict as JSON lines (`report --from-log` reads it)',
      })
      .option('log-bodies', {
        type: 'boolean',
        default: false,
        describe: 'keep each request body (credentials redacted) in the log',
      })
      .option('seed', {
        type: 'number',
        default: 0,
        describe: 'seed for generated tool arguments (same seed, same answers)',
      })
      .option('each-turn', {
        type: 'string',
        describe:
          'a waiting agent: run this shell command once per user turn (turn on stdin and in REASONING_REPLAY_MESSAGE)',
      })
      .option('protocol', {
        choices: ['jsonl'] as const,
        describe: 'a long-lived agent spoken to in JSON lines on stdin/stdout (docs/judge-your-agent.md)',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table the report names routes from',
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
          'contested rules refuse (those a recording shows accepted excepted) and every warning fails the run (exit 1): a contested rule answered leniently, a run that replayed no reasoning',
      })
      .option('shard', {
        type: 'string',
        describe:
          'play only shard i of N (e.g. 2/4) of the sessions (one per --scenario, dealt by scenario id) and write its result file; `report --merge DIR` joins the N files into what one unsharded run prints, writes and exits with',
      })
      .option('shard-out', {
        type: 'string',
        implies: 'shard',
        describe: 'where --shard writes its result file (default: shards/run-shard-<i>-of-<N>.json)',
      })
      .example('$0 run -- python3 my_agent.py', 'one session; the mocks call the tools my_agent.py offers')
      .example('$0 run --provider deepseek --junit junit.xml -- node agent.js', 'only the DeepSeek mock, JUnit for CI')
      .example(
        '$0 run --scenario tool-call-with-reasoning --each-turn "node agent.js --resume"',
        'a waiting agent, once per user turn',
      )
      .epilog(
        'The agent gets OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL, REASONING_REPLAY_URL, REASONING_REPLAY_PROVIDERS (JSON id -> base URL),\n' +
          'REASONING_REPLAY_<ID>_BASE_URL, REASONING_REPLAY_RUN_ID, REASONING_REPLAY_TURNS and placeholder API keys: see docs/judge-your-agent.md.\n' +
          'A contested rule (sources disagree) is answered as its lenient side and reported as a warning; a run in which no request sent back reasoning warns that it judged no replay.\n' +
          'Exit codes: 0 every request conformed (warnings alone included); 1 a request broke a provider rule (named), or a warning with --strict; 2 bad input; 3 the agent failed (non-zero exit, timeout, no request sent), with why: it exited after a mock refused it, it never reached the mocks (the base-URL variable its SDK reads), or its client spoke a protocol the mocks do not.',
      ),
  async run(args) {
    const argv = (args as unknown as { _: Array<string | number> })._.slice(1).map(String);
    const shard = args.shard !== undefined ? parseShard(args.shard) : undefined;
    if (!Number.isInteger(args.timeout) || args.timeout <= 0)
      throw new InputError('--timeout', '', `"${args.timeout}" is not a positive number of ms`, 'e.g. --timeout 60000');
    let mode: DriveMode;
    if (args['each-turn'] !== undefined) {
      if (argv.length)
        throw new InputError(
          '--each-turn',
          '',
          'was given together with an agent command after --',
          'use one: --each-turn "<cmd>" or -- <cmd>',
        );
      if (args['each-turn'].trim() === '')
        throw new InputError('--each-turn', '', 'is empty', 'give the shell command that runs one turn of your agent');
      mode = { kind: 'each-turn', command: args['each-turn'] };
    } else if (argv.length === 0) {
      throw new InputError(
        'run',
        '',
        'no agent command',
        'put it after --, e.g. reasoning-replay run -- python3 agent.py',
      );
    } else {
      mode = args.protocol === 'jsonl' ? { kind: 'jsonl', argv } : { kind: 'once', argv };
    }
    const loaded = loadMatrixInputs({ routesFile: args.routes });
    const scenarios = args.scenario.map((id) => {
      const found = loaded.scenarios.find((s) => s.id === id);
      if (!found)
        throw new InputError(
          '--scenario',
          '',
          `no scenario "${id}"`,
          `one of ${loaded.scenarios.map((s) => s.id).join(', ')}`,
        );
      return found;
    });
    for (const id of args.provider) {
      if (!loaded.specs.some((s) => s.id === id))
        throw new InputError(
          '--provider',
          '',
          `no provider "${id}"`,
          `one of ${loaded.specs.map((s) => s.id).join(', ')}`,
        );
    }
    const specs = servedSpecs(loaded.specs, args.provider);
    const faults = args.faults !== undefined ? selectFaults(args.faults) : undefined;
    // The command line may hold a key (`--api-key sk-...`); the suite name reaches junit.xml and shard files.
    const suite = redactText(
      `run -- ${mode.kind === 'each-turn' ? mode.command : mode.argv.join(' ')}`,
      secretsFromEnv(),
    );
    // Sharded, this machine plays only the sessions dealt to it (docs/decisions/0073).
    const keys = sessionKeys(args.scenario);
    const positions = shard ? positionsOfShard(keys, shard) : keys.map((_, i) => i);
    const result: RunResult =
      positions.length === 0
        ? { entries: [], sessions: [] }
        : await runAgent({
            mode,
            specs,
            fixtures: loaded.fixtures,
            table: loaded.table,
            scenarios: positions.flatMap((p) => (scenarios[p] ? [scenarios[p]] : [])),
            timeoutMs: args.timeout,
            // Bodies (redacted) always: run-report.html diffs the carriers each request sent. The log and
            // requests.jsonl keep them only under --log-bodies.
            logBodies: true,
            seed: args.seed,
            ...(faults ? { faults } : {}),
            ...(args.strict ? { strict: true } : {}),
            onProgress: (line) => process.stderr.write(`reasoning-replay run: ${line}\n`),
          });
    if (shard) {
      const file = writeShardFile(
        args['shard-out'] ?? defaultShardOut('run', shard),
        runShardResult({
          shard,
          routesFile: displayPath(loaded.routesFile, projectRoot()),
          routesPath: loaded.routesFile,
          keys,
          suite,
          options: {
            strict: args.strict,
            seed: args.seed,
            providers: [...args.provider].sort(),
            logBodies: args['log-bodies'],
          },
          positions,
          result,
        }),
      );
      process.stdout.write(
        `shard ${describeShard(shard)}: ${positions.length} of ${keys.length} session(s)${positions.length ? ` (${positions.map((p) => keys[p]).join(', ')})` : ''}; wrote ${relative(process.cwd(), file) || file}\n`,
      );
      // Nothing dealt here: nothing to judge, and nothing failed (report --merge gives the run's verdict).
      if (positions.length === 0) return EXIT_OK;
    }
    return finishRun(result, {
      specs,
      allSpecs: loaded.specs,
      strict: args.strict,
      suite,
      logBodies: args['log-bodies'],
      ...(args.junit !== undefined ? { junit: args.junit } : {}),
      ...(args.log !== undefined ? { log: args.log } : {}),
      ...(args.out !== undefined ? { out: args.out } : {}),
    });
  },
});
