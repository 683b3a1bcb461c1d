import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { BEHAVIOURS, CHECK_STATUSES, type Check } from '../../../judge/conformance/verdict.js';
import { renderOwnIoJunit } from './render-own-io-junit.js';
import type { OwnIoResult } from './run-own-io.js';

/** The own-I/O JUnit, read back as a CI system reads it: every count and verdict must match the results given. */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property',
});

const check = fc.record({
  behaviour: fc.constantFrom(...BEHAVIOURS),
  status: fc.constantFrom(...CHECK_STATUSES),
  // Details a message can carry: newlines, markup, characters XML forbids.
  detail: fc.string({ unit: 'binary', maxLength: 80 }),
}) as fc.Arbitrary<Check>;

const result: fc.Arbitrary<OwnIoResult> = fc.record(
  {
    provider: fc.constantFrom('deepseek', 'anthropic', 'gemini'),
    model: fc.constantFrom('m-1', 'claude-fable-5-1'),
    route: fc.constantFrom('deepseek', 'anthropic'),
    stream: fc.boolean(),
    status: fc.constantFrom(...CHECK_STATUSES),
    declined: fc.string({ minLength: 1, maxLength: 20 }),
    checks: fc.uniqueArray(check, { selector: (c) => c.behaviour, maxLength: 6 }),
    requests: fc.nat(20),
  },
  { requiredKeys: ['provider', 'model', 'route', 'stream', 'status', 'checks', 'requests'] },
);

describe('renderOwnIoJunit', () => {
  test('counts, failures and skips match the results', () => {
    fc.assert(
      fc.property(fc.array(result, { maxLength: 5 }), (results) => {
        const doc = parser.parse(renderOwnIoJunit(results, 'python engine.py')) as {
          testsuites: { tests: string; failures: string; testsuite?: Record<string, unknown>[] };
        };
        const suites = doc.testsuites.testsuite ?? [];
        expect(suites).toHaveLength(results.length);
        const judged = results.flatMap((r) => (r.declined ? [] : r.checks));
        const expectedTests = results.reduce((n, r) => n + (r.declined ? 1 : r.checks.length), 0);
        expect(Number(doc.testsuites.tests)).toBe(expectedTests);
        expect(Number(doc.testsuites.failures)).toBe(judged.filter((c) => c.status === 'fail').length);
        suites.forEach((suite, i) => {
          const r = results[i]!;
          const cases = (suite.testcase ?? []) as Record<string, unknown>[];
          if (r.declined) {
            expect(cases.map((c) => 'skipped' in c)).toEqual([true]);
            return;
          }
          expect(cases.map((c) => c.name)).toEqual(r.checks.map((c) => c.behaviour));
          cases.forEach((c, j) => {
            const status = r.checks[j]!.status;
            expect('failure' in c, `${status}`).toBe(status === 'fail');
            expect('skipped' in c, `${status}`).toBe(status === 'warn' || status === 'n/a');
          });
          expect(Number(suite.failures)).toBe(r.checks.filter((c) => c.status === 'fail').length);
        });
      }),
    );
  });

  it("is valid under the Jenkins junit-10 schema the gate's JUnit is held to, any text included", async () => {
    const xsd = readFileSync(
      fileURLToPath(new URL('../report/__fixtures__/jenkins-junit-10.xsd', import.meta.url)),
      'utf8',
    );
    const samples = fc.sample(fc.array(result, { minLength: 1, maxLength: 4 }), { numRuns: 20, seed: 7 });
    const xml = samples.map((results, i) => ({
      fileName: `junit-${i}.xml`,
      contents: renderOwnIoJunit(results, 'node my-engine.js'),
    }));
    expect(xml[0]!.contents).toContain('reasoning-replay own I/O: node my-engine.js');
    const checked = await validateXML({ xml, schema: [xsd] });
    expect(checked.errors.map((e) => e.rawMessage)).toEqual([]);
  });
});
