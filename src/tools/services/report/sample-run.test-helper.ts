import type { CellVerdict, Check, ConformanceRun } from '../../../judge/conformance/verdict.js';

/**
 * A hand-built run for the report and gate tests: three routes, four providers, a failing must-echo
 * cell whose detail carries characters every output format must escape, a recorded fixture next to
 * synthesized ones, and a cell with no fixture.
 */
export function sampleRun(): ConformanceRun {
  const check = (behaviour: Check['behaviour'], status: Check['status'], detail: string): Check => ({
    behaviour,
    status,
    detail,
  });
  const cell = (
    c: Omit<CellVerdict, 'status' | 'exchanges'> & { exchanges?: CellVerdict['exchanges'] },
  ): CellVerdict => ({
    ...c,
    exchanges: c.exchanges ?? [],
    status: c.checks.some((k) => k.status === 'fail')
      ? 'fail'
      : c.checks.every((k) => k.status === 'n/a')
        ? 'n/a'
        : 'pass',
  });
  const cells: CellVerdict[] = [
    cell({
      scenario: 'tool-call-without-stored-reasoning',
      target: 'deepseek',
      route: 'deepseek',
      tier: 'must-echo',
      family: 'openai-chat',
      checks: [
        check(
          'must-echo',
          'fail',
          'call 1, message 2: reasoning_content missing on a tool-call turn <assistant> & "pad" \'expected\'',
        ),
        check('provider-accepts', 'fail', 'call 1 answered 400'),
        check('fields-sent', 'pass', 'sent reasoning_content only'),
        check('signatures-verbatim', 'n/a', 'no signed items'),
      ],
      exchanges: [
        {
          call: 0,
          provider: 'deepseek',
          route: 'deepseek',
          url: 'https://api.deepseek.com/chat/completions',
          status: 200,
          sentFields: [],
          violations: [],
          attempt: 1,
        },
        {
          call: 1,
          provider: 'deepseek',
          route: 'deepseek',
          url: 'https://api.deepseek.com/chat/completions',
          status: 400,
          sentFields: [],
          violations: ['missing-reasoning-content'],
          attempt: 1,
        },
      ],
      fixture: {
        path: 'fixtures/providers/deepseek/tool-call-without-stored-reasoning.json',
        provenance: 'synthesized',
      },
    }),
    cell({
      scenario: 'tool-call-with-reasoning',
      target: 'deepseek',
      route: 'deepseek',
      tier: 'must-echo',
      family: 'openai-chat',
      checks: [
        check('must-echo', 'pass', 'reasoning_content echoed on 1 tool-call turn'),
        check('provider-accepts', 'pass', 'all 2 calls 200'),
      ],
      fixture: { path: 'fixtures/providers/deepseek/tool-call-with-reasoning.json', provenance: 'synthesized' },
    }),
    cell({
      scenario: 'tool-call-with-reasoning',
      target: 'mistral',
      route: 'mistral',
      tier: 'strict',
      family: 'openai-chat',
      checks: [
        check('strict-schema', 'pass', 'no carrier key sent'),
        check('provider-accepts', 'pass', 'all 2 calls 200'),
        check('must-echo', 'n/a', 'not a must-echo route'),
      ],
      fixture: { path: 'fixtures/providers/mistral/tool-call-with-reasoning.json', provenance: 'recorded' },
    }),
    cell({
      scenario: 'aggregator-multi-carrier-history',
      target: 'openrouter',
      route: 'openrouter',
      tier: 'standard',
      family: 'openai-chat',
      checks: [
        check('signatures-verbatim', 'pass', 'reasoning_details replayed byte for byte'),
        check('fields-sent', 'pass', 'all three carriers sent'),
      ],
      fixture: {
        path: 'fixtures/providers/openrouter/aggregator-multi-carrier-history.json',
        provenance: 'synthesized',
      },
    }),
    cell({
      scenario: 'aggregator-multi-carrier-history',
      target: 'openrouter-eu',
      route: 'openrouter',
      tier: 'standard',
      family: 'openai-chat',
      checks: [
        check('signatures-verbatim', 'n/a', 'no signed items'),
        check('fields-sent', 'pass', 'all three carriers sent'),
      ],
    }),
  ];
  return { routesFile: 'specs/routes.json', startedAt: '2026-12-02T13:00:00.000Z', durationMs: 1234, cells };
}
