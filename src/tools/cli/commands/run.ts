import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { loadMatrixInputs } from '../../matrix/run-matrix.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { brokeARule, runAgent, runExitCode, type DriveMode } from '../../agent-runner/run-agent.js';
import { clientReport } from '../../serve/client-report.js';
import { renderClientMarkdown, renderRequestJunit } from '../../serve/render-client-report.js';
import { writeClientReport } from '../../serve/write-client-report.js';
import { defineCommand } from '../cli-command.js';

const MAX_LISTED = 20;

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
        describe: 'write client-report.json/.md, junit.xml and requests.jsonl into this directory',
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
      .example('$0 run -- python3 my_agent.py', 'one session; the mocks call the tools my_agent.py offers')
      .example('$0 run --provider deepseek --junit junit.xml -- node agent.js', 'only the DeepSeek mock, JUnit for CI')
      .example(
        '$0 run --scenario tool-call-with-reasoning --each-turn "node agent.js --resume"',
        'a waiting agent, once per user turn',
      )
      .epilog(
        'The agent gets OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL, REASONING_REPLAY_URL, REASONING_REPLAY_PROVIDERS (JSON id -> base URL),\n' +
          'REASONING_REPLAY_<ID>_BASE_URL, REASONING_REPLAY_RUN_ID, REASONING_REPLAY_TURNS and placeholder API keys: see docs/judge-your-agent.md.\n' +
          'Exit codes: 0 every request conformed; 1 a request broke a provider rule (named); 2 bad input; 3 the agent failed (non-zero exit, timeout, no request sent).',
      ),
  async run(args) {
    const argv = (args as unknown as { _: Array<string | number> })._.slice(1).map(String);
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
    // A chosen provider brings the specs that share its base URL: --provider openai serves /openai/responses too.
    const chosenBases = new Set(
      loaded.specs.filter((s) => args.provider.includes(s.id)).map((s) => s.endpoint.baseUrl),
    );
    const specs = args.provider.length
      ? loaded.specs.filter((s) => args.provider.includes(s.id) || chosenBases.has(s.endpoint.baseUrl))
      : loaded.specs;

    const result = await runAgent({
      mode,
      specs,
      fixtures: loaded.fixtures,
      table: loaded.table,
      scenarios,
      timeoutMs: args.timeout,
      logBodies: args['log-bodies'],
      seed: args.seed,
      onProgress: (line) => process.stderr.write(`reasoning-replay run: ${line}\n`),
    });
    const code = runExitCode(result);

    for (const s of result.sessions) {
      process.stdout.write(
        `${s.scenario ?? 'follow-client'} (run ${s.runId}): agent ${s.exit.failure ?? 'exited 0'}, ${s.requests} request${s.requests === 1 ? '' : 's'} to the mocks\n`,
      );
    }
    const broken = result.entries.filter(brokeARule);
    for (const e of broken.slice(0, MAX_LISTED)) {
      const rules =
        e.findings.map((f) => `${f.rule}${f.detail ? `: ${f.detail}` : ` (${f.rejection})`}`).join('; ') ||
        `answered ${e.status}`;
      process.stdout.write(`✗ #${e.seq} ${e.provider} ${e.method} ${e.path} -> ${e.status}: ${rules}\n`);
    }
    if (broken.length > MAX_LISTED)
      process.stdout.write(`… and ${broken.length - MAX_LISTED} more (see --log or --out)\n`);
    const report = result.entries.length ? clientReport(result.entries, loaded.specs) : undefined;
    if (report) process.stdout.write('\n' + renderClientMarkdown(report) + '\n');
    const failed = result.sessions.filter((s) => s.exit.failure !== undefined || s.requests === 0);
    if (code === 3) {
      for (const s of failed) {
        const why =
          s.requests === 0 && !s.exit.failure
            ? 'sent no request to any mock: is its base URL read from the variables in docs/judge-your-agent.md?'
            : s.exit.failure;
        process.stderr.write(
          `reasoning-replay run: the agent ${why}\n--- agent output (last part) ---\n${s.exit.output}${s.exit.output.endsWith('\n') || !s.exit.output ? '' : '\n'}--- end of agent output ---\n`,
        );
      }
    }

    const agentFailure = failed.length
      ? failed
          .map((s) => `${s.scenario ?? 'follow-client'}: ${s.exit.failure ?? 'no request sent'}\n${s.exit.output}`)
          .join('\n')
      : undefined;
    const suite = `run -- ${mode.kind === 'each-turn' ? mode.command : mode.argv.join(' ')}`;
    const junit = renderRequestJunit(result.entries, suite, agentFailure);
    const lines = result.entries.map((e) => JSON.stringify(e) + '\n').join('');
    const written: string[] = [];
    if (args.junit) {
      mkdirSync(dirname(resolve(args.junit)), { recursive: true });
      writeFileSync(args.junit, junit);
      written.push(args.junit);
    }
    if (args.log) {
      mkdirSync(dirname(resolve(args.log)), { recursive: true });
      writeFileSync(args.log, lines);
      written.push(args.log);
    }
    if (args.out) {
      if (report) written.push(...writeClientReport(report, args.out, junit));
      else {
        mkdirSync(args.out, { recursive: true });
        writeFileSync(join(args.out, 'junit.xml'), junit);
        written.push(join(args.out, 'junit.xml'));
      }
      writeFileSync(join(args.out, 'requests.jsonl'), lines);
      written.push(join(args.out, 'requests.jsonl'));
    }
    for (const file of written) process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
    const verdict =
      code === 0
        ? '✓ the agent conformed'
        : code === 1
          ? `✗ ${broken.length} request${broken.length === 1 ? '' : 's'} broke a provider rule`
          : '✗ the agent failed (exit 3)';
    process.stdout.write(
      `${verdict}: ${result.entries.length} requests over ${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'}\n`,
    );
    return code;
  },
});
