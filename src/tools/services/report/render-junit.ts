import { XMLBuilder } from 'fast-xml-parser';
import { decisionsOf } from './build-compatibility-report.js';
import type { CompatibilityReport, MatrixCell } from './compatibility-report.js';
import { summarizeDetail } from './explain-check.js';
import { oneLine, xmlSafe } from './xml-escape.js';

/** Element content as fast-xml-parser's builder takes it: attributes under `@_`, text under `#text`. */
export type XmlNode = { [key: string]: string | number | XmlNode | XmlNode[] };

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

/** A JUnit document's text: the XML declaration, then `<testsuites>` with these attributes and suites. */
export function junitXml(testsuites: XmlNode): string {
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, testsuites }) as string;
}

/**
 * JUnit XML as CI systems read it: one testsuite per route, one testcase per route x behaviour cell
 * (the same cells as the report's matrix), a failure listing every failing scenario check, and
 * n/a cells as skipped, and warning cells as skipped with the warning as the reason (JUnit has no
 * warning state; a CI system must not fail on one, and must not hide it either). Built with fast-xml-parser's
 * XMLBuilder rather than by concatenation, and
 * shaped to the attribute set of Jenkins' junit-10.xsd, the strictest schema CI plugins use (no
 * `skipped` on <testsuites>). No time attributes: they are optional and would make the output unstable.
 *
 * Attribute values are one line: XML parsers normalise a raw newline in an attribute to a space, so
 * a multi-line `message` reaches the reader flattened. The full detail goes in the element's text.
 */
export function renderJunit(report: CompatibilityReport): string {
  const m = report.summary.cells;
  const untested = report.summary.untestedRoutes;
  const suites: XmlNode[] = report.routes.map((route) => ({
    '@_name': xmlSafe(`route ${route.route}`),
    '@_tests': route.matrix.length,
    '@_failures': route.matrix.filter((c) => c.status === 'fail').length,
    '@_errors': 0,
    '@_skipped': route.matrix.filter((c) => c.status === 'n/a' || c.status === 'warn').length,
    properties: {
      property: [
        { '@_name': 'providers', '@_value': xmlSafe(route.providers.join(' ')) },
        { '@_name': 'tiers', '@_value': xmlSafe(route.tiers.join(' ')) },
        {
          '@_name': 'fixtures',
          '@_value': `recorded:${route.provenance.recorded} synthesized:${route.provenance.synthesized} none:${route.provenance.none}`,
        },
      ],
    },
    testcase: route.matrix.map((cell) => testcase(report, route.route, cell)),
  }));
  if (untested.length > 0) {
    // A route nothing resolves to is untested, and a gate that passed it silently would lie.
    suites.push({
      '@_name': 'untested routes',
      '@_tests': untested.length,
      '@_failures': untested.length,
      '@_errors': 0,
      '@_skipped': 0,
      testcase: untested.map((route) => ({
        '@_classname': xmlSafe(`reasoning-replay.${route}`),
        '@_name': 'covered by a provider spec',
        failure: {
          '@_type': 'coverage',
          '@_message': xmlSafe(`no provider spec in specs/providers/ resolves to route ${route}`),
        },
      })),
    });
  }
  return junitXml({
    '@_name': 'reasoning-replay',
    '@_tests': m.total + untested.length,
    '@_failures': m.fail + untested.length,
    '@_errors': 0,
    testsuite: suites,
  });
}

function testcase(report: CompatibilityReport, route: string, cell: MatrixCell): XmlNode {
  const node: XmlNode = { '@_classname': xmlSafe(`reasoning-replay.${route}`), '@_name': xmlSafe(cell.behaviour) };
  if (cell.status === 'n/a') {
    node.skipped = {
      '@_message': xmlSafe(`not applicable: no scenario run exercises ${cell.behaviour} on route ${route}`),
    };
    return node;
  }
  if (cell.status === 'pass') return node;
  const deciding = decisionsOf(report, route, cell).filter((d) => d.status === cell.status);
  const first = deciding[0]!;
  const noun = cell.status === 'fail' ? 'failing check' : 'warning';
  const message = xmlSafe(
    oneLine(
      `${cell.status === 'warn' ? 'warning: ' : ''}${deciding.length} ${noun}${deciding.length === 1 ? '' : 's'}; first: ${first.scenario} on ${first.target}: ${summarizeDetail(first.detail, 240)}`,
      300,
    ),
  );
  const body = xmlSafe(
    deciding
      .map(
        (d) =>
          `scenario ${d.scenario} on ${d.target}${d.fixture ? ` (fixture ${d.fixture.path}, ${d.fixture.provenance})` : ''}: ${d.detail}`,
      )
      .join('\n'),
  );
  if (cell.status === 'warn') node.skipped = { '@_type': 'warning', '@_message': message, '#text': body };
  else node.failure = { '@_type': 'conformance', '@_message': message, '#text': body };
  return node;
}
