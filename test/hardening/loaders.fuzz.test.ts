/**
 * Every loader, fed anything: random JSON values, valid files with keys dropped / renamed /
 * retyped, text cut short or flipped, random bytes. Each must return a value or throw its own clean
 * error (InputError; StreamCarrierError for streams), never a TypeError or a RangeError from inside.
 * A value a loader accepts must also be usable by the next stage (a table resolves, a history
 * replays), since "accepted" is a promise to the rest of the pipeline.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { implementedFamilies, familyFor } from '../../src/engine/families/registry.js';
import { StreamCarrierError } from '../../src/shared/errors/stream-carrier-error.js';
import { answerRenderers } from '../../src/provider/answers/answer-renderers.js';
import { InputError } from '../../src/shared/errors/input-error.js';
import { HistoryShapeError } from '../../src/shared/errors/history-shape-error.js';
import { parseJson } from '../../src/shared/validation/read-json.js';
import { checkFixture } from '../../src/provider/fixtures/fixture-store.js';
import { aHistory } from '../helpers/history-arbitraries.test-helper.js';
import { checkHistory } from '../../src/engine/history/load-history.js';
import { fixturesDir, specsDir } from '../../src/shared/project-root.js';
import { checkProviderSpec, loadProviderSpecs } from '../../src/shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../src/shared/provider-specs/provider-spec.js';
import { compress } from '../../src/engine/compaction/compress.js';
import { estimateTokens } from '../../src/engine/compaction/estimate-tokens.js';
import { SessionStore } from '../../src/engine/session/session-store.js';
import { replayForRoute } from '../../src/engine/replay/replay-for-route.js';
import { defaultPhrasingsFile, loadUnknownFieldPhrasings } from '../../src/engine/replay/unknown-field-phrasings.js';
import { UnknownFieldVerdicts } from '../../src/engine/replay/unknown-field-verdicts.js';
import { parseBaseUrl } from '../../src/tools/services/recorder/live-target.js';
import { runFromLog } from '../../src/tools/services/run-report/report-from-log.js';
import { readServeLog, type ServeLogEntry } from '../../src/tools/services/serve/serve-log.js';
import { checkRouteTable, loadRouteTable, parseRouteTable } from '../../src/shared/route-table/load-route-table.js';
import { resolveRoute } from '../../src/shared/route-table/resolve-route.js';
import type { FamilyId, RoutePolicy } from '../../src/shared/route-table/route-table.js';
import { sampleTargetForRoute } from '../../src/shared/route-table/sample-target.js';
import { checkScenario, loadScenarios } from '../../src/shared/scenarios/load-scenarios.js';
import { formatSse } from '../../src/shared/sse/parse-sse.js';
import { aDamagedText, applyMutations, someJsonMutations } from './mutate-json.test-helper.js';

const RUNS = Math.max(200, Number(process.env.FC_RUNS) || 200);

/** Runs a loader; returns 'value' or 'clean' (its documented error). Any other throw fails the property. */
function outcome(
  load: () => unknown,
  clean: (err: unknown) => boolean = (e) => e instanceof InputError,
): 'value' | 'clean' {
  try {
    load();
    return 'value';
  } catch (err) {
    if (clean(err)) return 'clean';
    throw err;
  }
}

/** What JSON.parse would have produced: own `__proto__` keys, no undefined, no -0. */
const asParsed = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

const routesFile = join(specsDir(), 'routes.json');
const routesText = readFileSync(routesFile, 'utf8');
const routesJson = JSON.parse(routesText) as unknown;
const table = loadRouteTable();
const specs = loadProviderSpecs();
const scenarios = loadScenarios();
const scenarioFiles = scenarios.map((s) => join(specsDir(), 'scenarios', `${s.id}.json`));
const fixtureFiles = specs
  .flatMap((s) => scenarios.map((sc) => join(fixturesDir(), s.id, `${sc.id}.json`)))
  .filter((f) => {
    try {
      readFileSync(f);
      return true;
    } catch {
      return false;
    }
  });

/** A policy per route whose family is implemented, for replaying accepted histories. */
const policies: RoutePolicy[] = table.routes
  .filter((r) => implementedFamilies().includes(r.family))
  .map((r) => resolveRoute(table, sampleTargetForRoute(r)));

describe('route table loader', () => {
  test('any JSON value: a table or an InputError', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        outcome(() => checkRouteTable(value, 'fuzz.json'));
      }),
      { numRuns: RUNS },
    );
  });

  test('the bundled table, mutated: a table that resolves every route, or an InputError', () => {
    fc.assert(
      fc.property(someJsonMutations, (mutations) => {
        const doc = asParsed(applyMutations(routesJson, mutations));
        let accepted: ReturnType<typeof checkRouteTable> | undefined;
        outcome(() => (accepted = checkRouteTable(doc, 'fuzz.json')));
        if (accepted) {
          for (const route of accepted.routes) outcome(() => resolveRoute(accepted!, sampleTargetForRoute(route)));
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('damaged text: parseRouteTable gives a table or an InputError', () => {
    fc.assert(
      fc.property(aDamagedText(routesText), (text) => {
        outcome(() => parseRouteTable(text, 'fuzz.json'));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('provider spec loader', () => {
  const files = specs.map((s) => join(specsDir(), 'providers', `${s.id}.json`));
  test('any JSON value: a spec or an InputError', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        outcome(() => checkProviderSpec(value, 'fuzz.json'));
      }),
      { numRuns: RUNS },
    );
  });

  test('a bundled spec, mutated: a spec or an InputError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...files), someJsonMutations, (file, mutations) => {
        outcome(() => checkProviderSpec(asParsed(applyMutations(readJson(file), mutations)), file));
      }),
      { numRuns: RUNS },
    );
  });

  test('damaged text: a spec or an InputError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files).chain((f) => fc.tuple(fc.constant(f), aDamagedText(readFileSync(f, 'utf8')))),
        ([file, text]) => {
          outcome(() => checkProviderSpec(parseJson(text, file), file));
        },
      ),
      {
        numRuns: RUNS,
      },
    );
  });
});

describe('scenario loader', () => {
  test('any JSON value: a scenario or an InputError', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        outcome(() => checkScenario(value, 'fuzz.json'));
      }),
      { numRuns: RUNS },
    );
  });

  test('a bundled scenario, mutated: a scenario or an InputError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...scenarioFiles), someJsonMutations, (file, mutations) => {
        outcome(() => checkScenario(asParsed(applyMutations(readJson(file), mutations)), file));
      }),
      { numRuns: RUNS },
    );
  });

  test('damaged text: a scenario or an InputError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...scenarioFiles).chain((f) => fc.tuple(fc.constant(f), aDamagedText(readFileSync(f, 'utf8')))),
        ([file, text]) => {
          outcome(() => checkScenario(parseJson(text, file), file));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('fixture loader', () => {
  test('there are fixtures to mutate', () => {
    expect(fixtureFiles.length).toBeGreaterThan(10);
  });

  test('any JSON value: a fixture or an InputError', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        outcome(() => checkFixture(value, 'fuzz.json'));
      }),
      { numRuns: RUNS },
    );
  });

  test('a bundled fixture, mutated: a fixture or an InputError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixtureFiles), someJsonMutations, (file, mutations) => {
        outcome(() => checkFixture(asParsed(applyMutations(readJson(file), mutations)), file));
      }),
      { numRuns: RUNS },
    );
  });

  test('damaged text: a fixture or an InputError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtureFiles).chain((f) => fc.tuple(fc.constant(f), aDamagedText(readFileSync(f, 'utf8')))),
        ([file, text]) => {
          outcome(() => checkFixture(parseJson(text, file), file));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('history loader', () => {
  const store = SessionStore.open(':memory:');
  afterAll(() => store.close());
  /**
   * An accepted history must replay on every route, compact, and come back from state.db as it went
   * in: the schema is the promise the families, compaction and the store rely on.
   */
  const replaysEverywhere = (history: ReturnType<typeof checkHistory>) => {
    // A family that cannot express an accepted history (tool arguments that are a string but not JSON,
    // on a wire that needs an input object) refuses it with HistoryShapeError: pointer and hint, exit 2 from the CLI.
    for (const policy of policies)
      outcome(
        () => replayForRoute(history, policy),
        (e) => e instanceof InputError || e instanceof HistoryShapeError,
      );
    outcome(() => compress(history, Math.max(1, Math.floor(estimateTokens(history) / 3))));
    const id = store.importHistory(history);
    expect(store.resume(id).history).toEqual(history);
  };

  test('any JSON value: a history or an InputError', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        let accepted: ReturnType<typeof checkHistory> | undefined;
        outcome(() => (accepted = checkHistory(value, 'fuzz.json')));
        if (accepted) replaysEverywhere(accepted);
      }),
      { numRuns: RUNS },
    );
  });

  test('a generated history, mutated: a history that replays on every route, or an InputError', () => {
    fc.assert(
      fc.property(aHistory, someJsonMutations, (history, mutations) => {
        let accepted: ReturnType<typeof checkHistory> | undefined;
        outcome(() => (accepted = checkHistory(asParsed(applyMutations(history, mutations)), 'fuzz.json')));
        if (accepted) replaysEverywhere(accepted);
      }),
      { numRuns: RUNS },
    );
  });

  test('damaged text: a history or an InputError', () => {
    fc.assert(
      fc.property(
        aHistory.chain((h) => aDamagedText(JSON.stringify(h, null, 2))),
        (text) => {
          outcome(() => checkHistory(parseJson(text, 'fuzz.json'), 'fuzz.json'));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('SSE streams through each family’s StreamCarriers', () => {
  /** A spec of the given family to render scripted answers with (a bundled one, else a copy re-labelled). */
  const specFor = (family: FamilyId): ProviderSpec => {
    const own = specs.find((s) => s.family === family);
    if (own) return own;
    const base = specs.find((s) => s.id === 'openrouter') ?? specs[0]!;
    const model =
      family === 'bedrock-converse'
        ? 'anthropic.claude-sonnet-4-5'
        : family === 'gemini'
          ? 'gemini-2.5-pro'
          : base.target.model;
    const baseUrl = family === 'gemini' ? 'https://generativelanguage.googleapis.com' : base.endpoint.baseUrl;
    return {
      ...base,
      id: `fuzz-${family}`,
      family,
      target: { ...base.target, model },
      endpoint: { ...base.endpoint, baseUrl },
    };
  };
  const streaming = implementedFamilies().filter((f) => familyFor(f).streamCarriers);
  const cases = streaming.flatMap((family) => {
    const policy = policies.find((p) => p.family === family);
    const render = answerRenderers[family];
    if (!policy || !render) return [];
    const spec = specFor(family);
    const streams = scenarios.flatMap((scenario) =>
      scenario.steps.flatMap((step, call) =>
        'call' in step ? [formatSse(render(step.call.answer, { spec, call, scenario: scenario.id }).stream)] : [],
      ),
    );
    return [{ family, policy, streams }];
  });

  test('every family that reads streams has rendered streams to mutate', () => {
    expect(cases.map((c) => c.family).sort()).toEqual([...streaming].sort());
    for (const c of cases) expect(c.streams.length).toBeGreaterThan(0);
  });

  const isStreamError = (e: unknown) => e instanceof StreamCarrierError;
  const read = (policy: RoutePolicy, chunks: readonly string[]) => {
    const carriers = familyFor(policy.family).streamCarriers!(policy);
    for (const chunk of chunks) carriers.feed(chunk);
    return carriers.end();
  };

  /** A whole stream, split into 1-4 chunks at arbitrary points (byte boundaries do not follow events). */
  const split = (text: string, cuts: number[]) => {
    const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    return [...points, text.length].map((end, i) => text.slice(i === 0 ? 0 : points[i - 1], end));
  };

  for (const { family, policy, streams } of cases) {
    test(`${family}: a valid stream in any chunking reads whole`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...streams), fc.array(fc.nat(), { maxLength: 3 }), (stream, cuts) => {
          expect(outcome(() => read(policy, split(stream, cuts)), isStreamError)).toBe('value');
        }),
        { numRuns: RUNS },
      );
    });

    test(`${family}: a damaged stream gives an answer or a StreamCarrierError`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...streams).chain((s) => aDamagedText(s)),
          fc.array(fc.nat(), { maxLength: 3 }),
          (stream, cuts) => {
            outcome(() => read(policy, split(stream, cuts)), isStreamError);
          },
        ),
        {
          numRuns: RUNS,
        },
      );
    });

    test(`${family}: events holding any JSON give an answer or a StreamCarrierError`, () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              event: fc.option(fc.constantFrom('message', 'content_block_delta', 'messageStop', 'error'), {
                nil: undefined,
              }),
              data: fc.oneof(
                fc.jsonValue().map((v) => JSON.stringify(v)),
                fc.string(),
                fc.constant('[DONE]'),
              ),
            }),
            { maxLength: 8 },
          ),
          (events) => {
            outcome(
              () =>
                read(policy, [
                  formatSse(
                    events.map((e) => (e.event === undefined ? { data: e.data } : { event: e.event, data: e.data })),
                  ),
                ]),
              isStreamError,
            );
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});

describe('files read from disk: serve logs and the unknown-field phrasings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-fuzz-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const fileWith = (text: string) => {
    const file = join(dir, `f${n++}`);
    writeFileSync(file, text);
    return file;
  };

  const entry: ServeLogEntry = {
    seq: 1,
    time: '2026-01-01T00:00:00.000Z',
    provider: 'deepseek',
    route: 'deepseek',
    tier: 'must-echo',
    family: 'openai-chat',
    scenario: 'tool-call-with-reasoning',
    call: 0,
    method: 'POST',
    path: '/chat/completions',
    status: 400,
    sentFields: ['reasoning_content'],
    findings: [{ rule: 'must-echo', rejection: 'reasoning-content-not-passed-back', params: { index: 1 } }],
  };
  const logText = (entries: unknown[]) => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

  test('the sample serve log line is valid, so its mutations start from something real', () => {
    expect(readServeLog(fileWith(logText([entry, { ...entry, seq: 2 }])))).toHaveLength(2);
  });

  test('a serve log with mutated lines: entries that make a run, or an InputError', () => {
    fc.assert(
      fc.property(fc.array(someJsonMutations, { minLength: 1, maxLength: 3 }), (mutationsPerLine) => {
        const lines = mutationsPerLine.map((m, i) => asParsed(applyMutations({ ...entry, seq: i + 1 }, m)));
        let entries: ServeLogEntry[] | undefined;
        outcome(() => (entries = readServeLog(fileWith(logText(lines)))));
        if (entries) outcome(() => runFromLog(entries!, specs, routesFile));
      }),
      { numRuns: RUNS },
    );
  });

  test('a damaged serve log: entries or an InputError', () => {
    fc.assert(
      fc.property(aDamagedText(logText([entry, { ...entry, seq: 2, status: 200, findings: [] }])), (text) => {
        outcome(() => readServeLog(fileWith(text)));
      }),
      { numRuns: RUNS },
    );
  });

  const phrasingsText = readFileSync(defaultPhrasingsFile(), 'utf8');
  test('the unknown-field phrasings, mutated: phrasings or an InputError', () => {
    fc.assert(
      fc.property(someJsonMutations, (mutations) => {
        outcome(() =>
          loadUnknownFieldPhrasings(
            fileWith(JSON.stringify(asParsed(applyMutations(JSON.parse(phrasingsText), mutations)))),
          ),
        );
      }),
      { numRuns: RUNS },
    );
  });

  test('damaged phrasings text: phrasings or an InputError', () => {
    fc.assert(
      fc.property(aDamagedText(phrasingsText), (text) => {
        outcome(() => loadUnknownFieldPhrasings(fileWith(text)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('values read from a state.db and from flags', () => {
  const config = new UnknownFieldVerdicts().toModelConfig({ temperature: 1 });
  const withVerdicts = (() => {
    const v = new UnknownFieldVerdicts();
    v.record({ provider: 'groq', host: 'api.groq.com', model: 'm' }, ['reasoning_content', 'reasoning']);
    return v.toModelConfig(config);
  })();

  test('a session model_config: verdicts that answer lookups, or an InputError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc
            .constantFrom(config, withVerdicts)
            .chain((c) => someJsonMutations.map((m) => asParsed(applyMutations(c, m)))),
        ),
        (value) => {
          let verdicts: UnknownFieldVerdicts | undefined;
          outcome(() => (verdicts = UnknownFieldVerdicts.fromModelConfig(value, 'fuzz model_config')));
          if (verdicts) for (const policy of policies) verdicts.fieldsFor(policy.target);
        },
      ),
      { numRuns: RUNS },
    );
  });

  // Found by the property above (seed -1638025675): ajv's uniqueItems calls an own toString key.
  it('a model_config whose verdict list holds {"toString": ...} is an InputError, not a TypeError', () => {
    const value = asParsed({
      temperature: 1,
      unknown_field_verdicts: [['groq', 'api.groq.com', 'm', [{ a: 'reasoning_content' }, { toString: 'reasoning' }]]],
    });
    expect(outcome(() => UnknownFieldVerdicts.fromModelConfig(value, 'fuzz model_config'))).toBe('clean');
  });

  test('--base-url: a URL or an InputError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl(),
          fc.string(),
          fc.constantFrom(
            'ftp://x',
            'http://',
            'https://[::1]:8080',
            'http://127.0.0.1:9/v1',
            '//no-scheme',
            'javascript:alert(1)',
          ),
        ),
        (value) => {
          outcome(() => parseBaseUrl(value));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
