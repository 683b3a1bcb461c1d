import type { Check } from '../../../judge/conformance/verdict.js';
import { junitXml, type XmlNode } from '../report/render-junit.js';
import { oneLine, xmlSafe } from '../report/xml-escape.js';
import type { OwnIoResult } from './run-own-io.js';

/**
 * `check --engine-io own --junit FILE`: the own-I/O verdicts as the JUnit XML the gate writes for the built-in
 * engine (render-junit.ts), so a CI system reads both the same way. One testsuite per target run (provider, model,
 * plain or streamed), one testcase per behaviour judged; n/a and warnings are skipped (JUnit has no warning state,
 * and a CI system must neither fail on one nor hide it), failures carry every failing line. A run the engine
 * declined is one skipped testcase saying why.
 */
export function renderOwnIoJunit(results: readonly OwnIoResult[], engine: string): string {
  const suites = results.map((r) => suiteOf(r, engine));
  const count = (f: (c: XmlNode) => boolean) =>
    suites.reduce((n, s) => n + (s.testcase as XmlNode[]).filter(f).length, 0);
  return junitXml({
    '@_name': xmlSafe(`reasoning-replay own I/O: ${engine}`),
    '@_tests': count(() => true),
    '@_failures': count((c) => 'failure' in c),
    '@_errors': 0,
    testsuite: suites,
  });
}

function suiteOf(r: OwnIoResult, engine: string): XmlNode {
  const name = `${r.provider} ${r.model} ${r.stream ? 'streamed' : 'not streamed'}`;
  const classname = xmlSafe(`reasoning-replay.own-io.${r.provider}.${r.model}.${r.stream ? 'streamed' : 'plain'}`);
  const testcase: XmlNode[] = r.declined
    ? [
        {
          '@_classname': classname,
          '@_name': 'run',
          skipped: { '@_message': xmlSafe(`declined by ${engine}: ${r.declined}`) },
        },
      ]
    : r.checks.map((c) => testcaseOf(c, classname));
  return {
    '@_name': xmlSafe(name),
    '@_tests': testcase.length,
    '@_failures': testcase.filter((c) => 'failure' in c).length,
    '@_errors': 0,
    '@_skipped': testcase.filter((c) => 'skipped' in c).length,
    properties: {
      property: [
        { '@_name': 'route', '@_value': xmlSafe(r.route) },
        { '@_name': 'requests', '@_value': String(r.requests) },
      ],
    },
    testcase,
  };
}

function testcaseOf(check: Check, classname: string): XmlNode {
  const node: XmlNode = { '@_classname': classname, '@_name': xmlSafe(check.behaviour) };
  const message = xmlSafe(oneLine(check.detail, 300));
  if (check.status === 'n/a') node.skipped = { '@_message': xmlSafe(`not applicable: ${oneLine(check.detail, 280)}`) };
  else if (check.status === 'warn')
    node.skipped = { '@_type': 'warning', '@_message': `warning: ${message}`, '#text': xmlSafe(check.detail) };
  else if (check.status === 'fail')
    node.failure = { '@_type': 'conformance', '@_message': message, '#text': xmlSafe(check.detail) };
  return node;
}
