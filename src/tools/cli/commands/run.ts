import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { loadMatrixInputs } from '../../matrix/run-matrix.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { runAgent, type DriveMode } from '../../agent-runner/run-agent.js';
import { describeRefusal, NO_REPLAY, runVerdict } from '../../agent-runner/run-verdict.js';
import { runReport, type RunNote } from '../../run-report/run-report.js';
import { renderRunHtml, RUN_REPORT_HTML } from '../../run-report/render-run-html.js';
import type { ServeLogEntry } from '../../serve/serve-log.js';
import { clientReport } from '../../serve/client-report.js';
import { renderClientMarkdown, renderRequestJunit } from '../../serve/render-client-report.js';
import { writeClientReport } from '../../serve/write-client-report.js';
import { redactText } from '../../recorder/redact.js';
import { secretsFromEnv } from '../../serve/redact-body.js';
import { defineCommand } from '../cli-command.js';

const MAX_LISTED = 20;

/** A log line without its body: what `run` writes unless --log-bodies asks for the bodies. */
function withoutBody(e: ServeLogEntry): ServeLogEntry {
  const { body: _body, ...rest } = e;
  return rest;
}

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
      .option('strict', {
        type: 'boolean',
        default: false,
        describe:
          'contested rules refuse (those a recording shows accepted excepted) and every warning fails the run (exit 1): a contested rule answered leniently, a run that replayed no reasoning',
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
      // Bodies (redacted) always: run-report.html diffs the carriers each request sent. The log and requests.jsonl
      // keep them only under --log-bodies.
      logBodies: true,
      seed: args.seed,
      ...(args.strict ? { strict: true } : {}),
      onProgress: (line) => process.stderr.write(`reasoning-replay run: ${line}\n`),
    });
    const verdict = runVerdict(result, { strict: args.strict, specs });
    const code = verdict.code;

    for (const s of result.sessions) {
      process.stdout.write(
        `${s.scenario ?? 'follow-client'} (run ${s.runId}): agent ${s.exit.failure ?? 'exited 0'}, ${s.requests} request${s.requests === 1 ? '' : 's'} to the mocks\n`,
      );
    }
    for (const e of verdict.broken.slice(0, MAX_LISTED)) process.stdout.write(`✗ ${describeRefusal(e)}\n`);
    if (verdict.broken.length > MAX_LISTED)
      process.stdout.write(`… and ${verdict.broken.length - MAX_LISTED} more (see --log or --out)\n`);
    for (const w of verdict.warnings.slice(0, MAX_LISTED)) process.stdout.write(`! ${w}\n`);
    if (verdict.warnings.length > MAX_LISTED)
      process.stdout.write(`… and ${verdict.warnings.length - MAX_LISTED} more warnings (see --log or --out)\n`);
    const sessions = `${result.entries.length} requests over ${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'}`;
    const report = result.entries.length ? clientReport(result.entries, loaded.specs) : undefined;
    if (report) process.stdout.write('\n' + renderClientMarkdown(report, verdict.headline) + '\n');
    for (const f of verdict.failures) {
      process.stdout.write(`✗ ${f.session.scenario ?? 'follow-client'}: ${f.why}\n`);
      const out = f.session.exit.output;
      process.stderr.write(
        `reasoning-replay run: ${f.why}\n--- agent output (last part) ---\n${out}${out.endsWith('\n') || !out ? '' : '\n'}--- end of agent output ---\n`,
      );
    }

    const agentFailure = verdict.failures.length
      ? verdict.failures
          .map((f) => `${f.session.scenario ?? 'follow-client'}: ${f.why}\n${f.session.exit.output}`)
          .join('\n')
      : undefined;
    // The command line and the agent's output may hold a key (`--api-key sk-...`): junit.xml is an artifact
    // others read, so both go through the same redaction as the logged bodies.
    const secrets = secretsFromEnv();
    const suite = redactText(`run -- ${mode.kind === 'each-turn' ? mode.command : mode.argv.join(' ')}`, secrets);
    const junit = renderRequestJunit(
      result.entries,
      suite,
      agentFailure === undefined ? undefined : redactText(agentFailure, secrets),
    );
    const logged = args['log-bodies'] ? result.entries : result.entries.map(withoutBody);
    const lines = logged.map((e) => JSON.stringify(e) + '\n').join('');
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
      const notes: RunNote[] = [
        ...verdict.failures.map((f) => ({
          status: 'fail' as const,
          text: `${f.session.scenario ?? 'follow-client'}: ${f.why}`,
        })),
        ...(verdict.warnings.includes(NO_REPLAY) ? [{ status: 'warn' as const, text: NO_REPLAY }] : []),
      ];
      const html = renderRunHtml(runReport(result.entries, loaded.specs, { headline: verdict.headline, notes }));
      if (report) written.push(...writeClientReport(report, args.out, junit, verdict.headline, html));
      else {
        mkdirSync(args.out, { recursive: true });
        writeFileSync(join(args.out, 'junit.xml'), junit);
        written.push(join(args.out, 'junit.xml'));
        writeFileSync(join(args.out, RUN_REPORT_HTML), html);
        written.push(join(args.out, RUN_REPORT_HTML));
      }
      writeFileSync(join(args.out, 'requests.jsonl'), lines);
      written.push(join(args.out, 'requests.jsonl'));
    }
    for (const file of written) process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
    process.stdout.write(`${verdict.headline}: ${sessions}\n`);
    return code;
  },
});
