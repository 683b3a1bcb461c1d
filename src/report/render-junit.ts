import type { CompatibilityReport, MatrixCell } from './compatibility-report.js';
import { escapeXml } from './xml-escape.js';

/**
 * JUnit XML as CI systems read it: one testsuite per route, one testcase per route x behaviour cell
 * (the same cells as the report's matrix), a failure listing every failing scenario check, and
 * n/a cells as skipped. No time attributes: they are optional and would make the output unstable.
 */
export function renderJunit(report: CompatibilityReport): string {
  const x = escapeXml;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const m = report.summary.matrix;
  const untested = report.summary.untestedRoutes;
  out.push(`<testsuites name="reasoning-replay" tests="${m.total + untested.length}" failures="${m.fail + untested.length}" errors="0" skipped="${m.na}">`);
  for (const route of report.routes) {
    const fail = route.matrix.filter((c) => c.status === 'fail').length;
    const skipped = route.matrix.filter((c) => c.status === 'n/a').length;
    out.push(`  <testsuite name="route ${x(route.route)}" tests="${route.matrix.length}" failures="${fail}" errors="0" skipped="${skipped}">`);
    out.push('    <properties>');
    out.push(`      <property name="providers" value="${x(route.providers.join(' '))}"/>`);
    out.push(`      <property name="tiers" value="${x(route.tiers.join(' '))}"/>`);
    out.push(`      <property name="fixtures" value="recorded:${route.provenance.recorded} synthesized:${route.provenance.synthesized} none:${route.provenance.none}"/>`);
    out.push('    </properties>');
    for (const cell of route.matrix) out.push(...testcase(route.route, cell));
    out.push('  </testsuite>');
  }
  if (untested.length > 0) {
    // A route nothing resolves to is untested, and a gate that passed it silently would lie.
    out.push(`  <testsuite name="untested routes" tests="${untested.length}" failures="${untested.length}" errors="0" skipped="0">`);
    for (const route of untested) {
      out.push(`    <testcase classname="reasoning-replay.${x(route)}" name="covered by a provider spec">`);
      out.push(`      <failure type="coverage" message="${x(`no provider spec in specs/providers/ resolves to route ${route}`)}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function testcase(route: string, cell: MatrixCell): string[] {
  const x = escapeXml;
  const open = `    <testcase classname="reasoning-replay.${x(route)}" name="${x(cell.behaviour)}"`;
  if (cell.status === 'pass') return [`${open}/>`];
  if (cell.status === 'n/a') return [`${open}>`, `      <skipped message="${x(`no scenario exercises ${cell.behaviour} on route ${route}`)}"/>`, '    </testcase>'];
  const failing = cell.decisions.filter((d) => d.status === 'fail');
  const first = failing[0]!;
  const message = `${failing.length} failing check${failing.length === 1 ? '' : 's'}; first: ${first.scenario} on ${first.target}: ${first.detail}`;
  const body = failing
    .map((d) => `scenario ${d.scenario} on ${d.target}${d.fixture ? ` (fixture ${d.fixture.path}, ${d.fixture.provenance})` : ''}: ${d.detail}`)
    .join('\n');
  return [`${open}>`, `      <failure type="conformance" message="${x(message)}">${x(body)}</failure>`, '    </testcase>'];
}
