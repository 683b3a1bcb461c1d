import { answerRoutes } from '../../../provider/handlers/answer-routes.js';
import { mockAnswerText } from '../../../provider/handlers/routes-transport.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { providerRoutes } from '../../../provider/handlers/provider-routes.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import {
  agreementSummary,
  formatAgreement,
  formatClassAgreement,
  realWorldAgreement,
  realWorldReportSection,
} from '../../services/real-world-cases/agreement.js';
import { formatCoverage } from '../../services/real-world-cases/rule-coverage.js';
import { formatClassCoverage } from '../../services/real-world-cases/class-coverage.js';
import {
  formatParameterCoverage,
  parameterCoverageSection,
} from '../../services/parameter-coverage/parameter-coverage.js';
import { RULE_CLASSES, type RuleClass } from '../../services/real-world-cases/real-world-case.js';
import { datedCases, formatDatedCases, loadRealWorldCases } from '../../services/real-world-cases/real-world-case.js';
import { caseExchange, caseUrl, describeReal } from '../../services/real-world-cases/replay-case.js';
import { resolvePlaceholders } from '../../services/real-world-cases/resolve-placeholders.js';

/**
 * `reasoning-replay real-world`: replay the corpus of real cases (specs/real-world) against the
 * provider mocks and say, per provider, how often the mock answers as the real provider did.
 * Exit 1 while a case whose sources agree is answered differently (contested ones only warn,
 * unless --strict), so a mock change that breaks fidelity fails a CI step running it.
 */
export const realWorldCommand = defineCommand({
  command: 'real-world',
  describe:
    'Replay the real-world cases (public bug reports, recorded exchanges) against the provider mocks; exit 1 when a mock answers differently',
  builder: (y) =>
    y
      .option('provider', { type: 'string', describe: 'only the cases of this provider spec id' })
      .option('class', {
        type: 'string',
        choices: RULE_CLASSES as unknown as string[],
        describe: 'only the cases of this rule class',
      })
      .option('uncovered', {
        type: 'boolean',
        default: false,
        describe: 'list every spec rule no case fires (where the corpus needs a case next)',
      })
      .option('case', {
        type: 'string',
        describe: 'show one case: its source, the request sent (placeholders resolved) and both answers',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the per-provider agreement as JSON' })
      .option('strict', {
        type: 'boolean',
        default: false,
        describe:
          'contested rules refuse (those a recording shows accepted excepted), and contested cases that disagree count as failures',
      })
      .example(
        '$0 real-world',
        'agreement per provider and per rule class, coverage of the spec rules, every disagreement',
      )
      .example('$0 real-world --class history-structure', 'only the cases of one rule class')
      .example(
        '$0 real-world --case deepseek-v4-tool-turn-without-reasoning-openagent',
        'what was sent and what each side answered',
      )
      .epilog(
        'Exit codes: 0 every case agrees (contested disagreements warn), 1 a disagreement (or a contested one with --strict), 2 bad input.',
      ),
  async run(args) {
    let cases = loadRealWorldCases();
    if (args.provider !== undefined) {
      cases = cases.filter((c) => c.case.provider === args.provider);
      if (cases.length === 0)
        throw new InputError(
          '--provider',
          '',
          `no real-world case names provider "${args.provider}"`,
          'see specs/real-world/',
        );
    }
    if (args.class !== undefined) cases = cases.filter((c) => c.case.ruleClass === (args.class as RuleClass));
    if (args.case !== undefined) return showCase(args.case, cases, args.strict);
    const agreement = await realWorldAgreement({ cases, ...(args.strict ? { strict: true } : {}) });
    if (args.json) {
      process.stdout.write(JSON.stringify(realWorldReportSection(agreement), null, 2) + '\n');
    } else {
      process.stdout.write('agreement per provider:\n' + formatAgreement(agreement) + '\n');
      process.stdout.write('\nagreement per rule class:\n' + formatClassAgreement(agreement) + '\n');
      // Coverage is of every spec's rules: narrowed to some cases, it says what those cases fire.
      process.stdout.write(
        '\ncoverage of the spec rules by these cases:\n' + formatCoverage(agreement.coverage) + '\n',
      );
      process.stdout.write('\nrule classes covered by these cases:\n' + formatClassCoverage(agreement.classes) + '\n');
      process.stdout.write(
        '\nreasoning parameters: catalogued reasoning models × documented parameters with a sourced row:\n' +
          formatParameterCoverage(parameterCoverageSection(loadProviderSpecs())) +
          '\n',
      );
      if (args.uncovered)
        process.stdout.write(
          `\nrules no case fires (${agreement.coverage.unfired.length}):\n` +
            agreement.coverage.unfired.map((k) => `  ${k}`).join('\n') +
            '\n',
        );
      const disagreeing = agreement.results.filter((r) => !r.agrees);
      if (disagreeing.length > 0) {
        process.stdout.write(
          '\n' +
            disagreeing
              .map((r) => `${r.contested ? `! contested (by the ${r.contestedBy})` : '✗'} ${r.id}: ${r.difference}`)
              .join('\n') +
            '\n',
        );
      }
      process.stdout.write(`\ndated cases: ${formatDatedCases(cases.length, datedCases(cases))}\n`);
      process.stdout.write('\n' + agreementSummary(agreement) + '\n');
    }
    const failing = agreement.total.disagree + (args.strict ? agreement.total.contestedDisagree : 0);
    return failing > 0 ? EXIT_VIOLATION : EXIT_OK;
  },
});

async function showCase(id: string, cases: ReturnType<typeof loadRealWorldCases>, strict: boolean): Promise<number> {
  const found = cases.find((c) => c.case.id === id);
  if (!found)
    throw new InputError(
      '--case',
      '',
      `no real-world case "${id}"`,
      'case ids are the file names in specs/real-world/',
    );
  const c = found.case;
  const spec = loadProviderSpecs().find((s) => s.id === c.provider);
  if (!spec) throw new InputError(found.path, '/provider', `no provider spec "${c.provider}"`, 'see specs/providers/');
  const fixtures = new FixtureStore();
  const url = caseUrl(spec, c);
  const body = resolvePlaceholders(c.request.body);
  // The same request the replay sends, scenario header included, so an accepted case shows the answer it gets.
  const answer = await answerRoutes(
    providerRoutes(spec, fixtures, strict ? { strict: true } : {}),
    caseExchange(c, spec, fixtures),
  );
  const lines = [
    `${c.id} (${found.path})`,
    `source: ${c.source.url} (${c.source.kind})`,
    `client: ${c.framework}; provider ${c.provider}${c.upstream ? ` -> ${c.upstream}` : ''}; model ${c.model}`,
    `real answer: ${describeReal(c.outcome)}${c.contested ? ` (contested: ${(c.contestedSources ?? []).join(', ')})` : ''}`,
    `POST ${url}`,
    JSON.stringify(body, null, 2),
    answer ? `mock answer: ${answer.status}\n${mockAnswerText(answer)}` : 'mock answer: none (no mock serves this URL)',
  ];
  if (c.notes) lines.splice(4, 0, `notes: ${c.notes}`);
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT_OK;
}
