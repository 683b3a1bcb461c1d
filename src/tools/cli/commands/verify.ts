import { join, relative } from 'node:path';
import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { loadScenarios } from '../../../shared/scenarios/load-scenarios.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { loadRealWorldCases } from '../../services/real-world-cases/real-world-case.js';
import { redactText } from '../../services/recorder/redact.js';
import { CATEGORY_LABEL } from '../../commands/verify/classify.js';
import { buildDriftReport, disagreements, writeDriftReport } from '../../commands/verify/drift-report.js';
import { loadLiveLimits } from '../../commands/verify/live-limits.js';
import { parseBaseUrls, resolveLiveProviders } from '../../commands/verify/live-providers.js';
import { planVerify } from '../../commands/verify/plan-verify.js';
import { loadPriceTable } from '../../commands/verify/price-table.js';
import { renderPlan, summarizePlan } from '../../commands/verify/render-plan.js';
import { runVerify } from '../../commands/verify/run-verify.js';
import { resultLabel, type VerifyResult } from '../../commands/verify/verify-result.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';

const positive = (flag: string, value: number, whole = false) => {
  if (!(value > 0) || (whole && !Number.isInteger(value)))
    throw new InputError(flag, '', `must be a positive ${whole ? 'whole number' : 'number'}, got ${value}`);
  return value;
};

function known(flag: string, given: readonly string[] | undefined, ids: ReadonlySet<string>, where: string) {
  for (const id of given ?? [])
    if (!ids.has(id))
      throw new InputError(flag, '', `no ${flag.slice(2)} "${id}"`, `ids are the file names in ${where}`);
  return given;
}

const MARK: Record<string, string> = { agrees: '✓', 'not-run': '·', skipped: '–', inconclusive: '?', error: '!' };

function line(r: VerifyResult): string {
  const what = r.outcome === 'compared' ? CATEGORY_LABEL[r.category!] : r.outcome;
  const mark = r.outcome === 'compared' ? (r.category === 'agrees' ? '✓' : '✗') : (MARK[r.outcome] ?? ' ');
  const tail = r.outcome === 'compared' && r.category === 'agrees' ? '' : `: ${r.detail}`;
  return `${mark} ${what.padEnd(16)} ${r.provider} ${resultLabel(r)}${tail}${r.caseFile ? ` -> real-world/${r.caseFile}` : ''}`;
}

/**
 * `reasoning-replay verify --live`: every real-world case and every scenario sent to the live
 * providers with the user's own keys, the live answers compared with the mocks', a drift report
 * and a new recorded case per disagreement. `--dry-run` prints the plan and its cost, sending nothing.
 */
export const verifyCommand = defineCommand({
  command: 'verify',
  describe:
    'Check the mocks against the live providers with your keys: a drift report and a new real-world case per disagreement (docs/verify.md)',
  builder: (y) =>
    y
      .option('live', {
        type: 'boolean',
        default: false,
        describe: 'send the requests to the live providers (costs money: see --max-cost)',
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'print what would be sent and what it would cost; send nothing',
      })
      .option('provider', { type: 'string', array: true, describe: 'only these provider spec ids' })
      .option('case', {
        type: 'string',
        array: true,
        describe: 'only these real-world cases (no scenarios unless --scenario)',
      })
      .option('scenario', { type: 'string', array: true, describe: 'only these scenarios (no cases unless --case)' })
      .option('max-requests', {
        type: 'number',
        default: 50,
        describe: 'hard cap on requests sent, setup calls included',
      })
      .option('max-cost', {
        type: 'number',
        default: 1,
        describe: 'hard cap on estimated spend in USD (specs/prices.json)',
      })
      .option('timeout', { type: 'number', default: 60_000, describe: 'deadline per request in ms, body included' })
      .option('max-time', { type: 'number', default: 1_800_000, describe: 'deadline of the whole run in ms' })
      .option('out', {
        type: 'string',
        default: 'verify-out',
        describe: 'folder for drift.{json,md,junit.xml} and real-world/<new case>.json',
      })
      .option('base-url', {
        type: 'string',
        array: true,
        describe:
          'P=URL: send provider P to URL instead of its public endpoint (a proxy, your Vertex project, a local server)',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'with --dry-run: print the plan as JSON, bodies included',
      })
      .example('$0 verify --dry-run', 'the whole corpus: every request, its cap and its estimated cost')
      .example(
        'DEEPSEEK_API_KEY=... $0 verify --live --provider deepseek --max-cost 0.05',
        'one provider, five cents at most',
      )
      .epilog(
        "Keys come from each provider's usual environment variable (the spec's secretEnv); they are never printed or stored. " +
          'A run stops at the first 401, 403 or 429, and before any request that would pass --max-requests, --max-cost or --max-time.\n' +
          'Exit codes: 0 every compared answer agrees (or a dry run), 1 a disagreement, a request without an answer, or a stop on 401/403/429, 2 bad input.',
      ),
  async run(args) {
    if (!args.live && !args['dry-run'])
      throw new InputError(
        'verify',
        '',
        'sends requests that cost money, so it needs --live',
        'or --dry-run to see what it would send and cost',
      );
    const caps = {
      maxRequests: positive('--max-requests', args['max-requests'], true),
      maxCost: positive('--max-cost', args['max-cost']),
      maxTimeMs: positive('--max-time', args['max-time']),
    };
    const timeoutMs = positive('--timeout', args.timeout);
    const specs = loadProviderSpecs();
    const ids = new Set(specs.map((s) => s.id));
    const cases = loadRealWorldCases();
    const scenarios = loadScenarios();
    const select = {
      ...(known('--provider', args.provider, ids, 'specs/providers/') ? { providers: args.provider! } : {}),
      ...(known('--case', args.case, new Set(cases.map((c) => c.case.id)), 'specs/real-world/')
        ? { cases: args.case! }
        : {}),
      ...(known('--scenario', args.scenario, new Set(scenarios.map((s) => s.id)), 'specs/scenarios/')
        ? { scenarios: args.scenario! }
        : {}),
    };
    const baseUrls = parseBaseUrls(args['base-url'] ?? [], ids);
    const only = select.providers;
    const selected = only ? specs.filter((s) => only.includes(s.id)) : specs;
    const { providers, secrets } = resolveLiveProviders(selected, loadLiveLimits(), baseUrls);
    const inputs = {
      providers,
      specs,
      table: loadRouteTable(),
      cases,
      scenarios,
      fixtures: new FixtureStore(),
      prices: loadPriceTable(),
      select,
    };
    const out = (text: string) => process.stdout.write(redactText(text, secrets));

    if (args['dry-run']) {
      const items = await planVerify(inputs);
      if (args.json) {
        const plan = items.map(({ loaded: _l, scenario: _s, setup: _u, cap: _c, price, ...rest }) => ({
          ...rest,
          ...(price ? { price: { input: price.input, output: price.output, source: price.source } } : {}),
        }));
        out(JSON.stringify({ summary: summarizePlan(items, caps), items: plan }, null, 2) + '\n');
      } else
        out(
          renderPlan(items, providers, caps, { bodies: select.cases !== undefined || select.scenarios !== undefined }),
        );
      return EXIT_OK;
    }

    const dir = args.out;
    const run = await runVerify({
      ...inputs,
      caps,
      timeoutMs,
      casesDir: join(dir, 'real-world'),
      secrets,
      // Skipped and not-run items are counted in the summary (a stop leaves many), not listed here.
      onResult: (r) => {
        if (r.outcome !== 'skipped' && r.outcome !== 'not-run') out(line(r) + '\n');
      },
    });
    const report = buildDriftReport(run, timeoutMs);
    const files = writeDriftReport(report, dir, secrets);
    const t = report.totals;
    const shown = relative(process.cwd(), dir) || dir;
    out(
      `\n${t.agrees} agree, ${t['mock-too-strict']} mock too strict, ${t['mock-too-lenient']} mock too lenient, ${t['wording-changed']} wording changed` +
        ` (${t.inconclusive} inconclusive, ${t.error} error, ${t.skipped} skipped, ${t['not-run']} not run); ` +
        `${report.spend.requests} request(s), ≈ $${report.spend.chargedUsd.toFixed(4)}.\n` +
        `wrote ${files.map((f) => join(shown, f)).join(', ')}` +
        (report.casesWritten.length
          ? ` and ${report.casesWritten.length} case(s) in ${join(shown, 'real-world')}/ (review, then copy into specs/real-world/)`
          : '') +
        '\n',
    );
    if (run.stopped) process.stderr.write(redactText(`reasoning-replay: verify ${run.stopped.message}\n`, secrets));
    if (report.spend.requests === 0)
      process.stderr.write(
        'reasoning-replay: verify sent nothing: no selected provider is reachable (set its key variable; drift.md lists why each item was skipped)\n',
      );
    const failing = disagreements(report).length > 0 || t.error > 0 || run.stopped?.reason === 'refused';
    return failing ? EXIT_VIOLATION : EXIT_OK;
  },
});
