import { escapeXml } from '../report/xml-escape.js';
import type { ClientCellStatus, ClientReport } from './client-report.js';
import { brokeARule, type ServeLogEntry } from '../serve/serve-log.js';

const SYMBOL: Record<ClientCellStatus, string> = { pass: '✓', warn: '!', fail: '✗', 'n/a': '–', 'not-observable': '·' };

const HEADLINE: Record<ClientReport['summary']['verdict'], string> = {
  pass: '✓ conforms',
  warn: '! conforms, with warnings',
  fail: '✗ violates',
};

/**
 * Markdown: one table per client, providers down, behaviours across, failures spelled out below. `headline` replaces
 * the verdict of the requests alone where a caller knows more (`run`: the agent's own exit), so there is one verdict.
 */
export function renderClientMarkdown(report: ClientReport, headline?: string): string {
  const s = report.summary;
  const lines = [
    `# reasoning-replay: what the mocks saw of ${report.clients.length === 1 ? report.clients[0] : `${report.clients.length} clients`}`,
    '',
    `${headline ?? HEADLINE[s.verdict]}: ${s.requests} requests; cells ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.na} n/a, ${s.notObservable} not observable from a log.` +
      (report.runIds.length ? ` Run ${report.runIds.join(', ')}.` : ''),
    '',
    `Legend: ${Object.entries(SYMBOL)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}.`,
  ];
  for (const client of report.clients) {
    const cells = report.cells.filter((c) => c.client === client);
    const providers = [...new Set(cells.map((c) => c.provider))];
    lines.push(
      '',
      `## ${client}`,
      '',
      `| provider (route) | requests | ${report.behaviours.join(' | ')} |`,
      `|---|---|${report.behaviours.map(() => '---').join('|')}|`,
    );
    for (const p of providers) {
      const row = cells.filter((c) => c.provider === p);
      lines.push(
        `| ${p} (${row[0]!.route}) | ${row[0]!.requests} | ${report.behaviours.map((b) => SYMBOL[row.find((c) => c.behaviour === b)?.status ?? 'n/a']).join(' | ')} |`,
      );
    }
    const bad = cells.filter((c) => c.status === 'fail' || c.status === 'warn');
    if (bad.length) {
      lines.push('');
      for (const c of bad)
        lines.push(`- ${SYMBOL[c.status]} **${c.provider} / ${c.behaviour}**: ${c.detail.split('\n').join('; ')}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** JUnit for the report: a suite per client, a testcase per provider x observable behaviour. */
export function renderClientJunit(report: ClientReport): string {
  const suites = report.clients.map((client) => {
    const cells = report.cells.filter((c) => c.client === client && c.status !== 'not-observable');
    const cases = cells.map((c) => {
      const head = `    <testcase classname="reasoning-replay.${escapeXml(c.provider)}" name="${escapeXml(c.behaviour)}">`;
      if (c.status === 'fail')
        return `${head}\n      <failure message="${escapeXml(c.detail.split('\n')[0]!)}">${escapeXml(c.detail)}</failure>\n    </testcase>`;
      if (c.status === 'n/a') return `${head}\n      <skipped message="${escapeXml(c.detail)}"/>\n    </testcase>`;
      return `${head}</testcase>`;
    });
    const failures = cells.filter((c) => c.status === 'fail').length;
    const skipped = cells.filter((c) => c.status === 'n/a').length;
    return `  <testsuite name="${escapeXml(client)}" tests="${cells.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="reasoning-replay client report">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** JUnit for `run`: one testcase per request the agent sent, failing with the rule it broke. */
export function renderRequestJunit(
  entries: readonly ServeLogEntry[],
  suite: string,
  agentFailure?: string,
  faults: ReadonlyArray<{ fault: string; status: 'pass' | 'fail' | 'warn'; text: string }> = [],
): string {
  const cases = entries.map((e) => {
    const name = `#${e.seq} ${e.method} ${e.path} (call ${e.call})`;
    const head = `    <testcase classname="reasoning-replay.${escapeXml(e.provider)}" name="${escapeXml(name)}">`;
    const bad = brokeARule(e);
    if (!bad) return `${head}</testcase>`;
    const rules = e.findings.map((f) => f.rule).join(', ') || `status ${e.status}`;
    const detail = e.findings.map((f) => `${f.rule}: ${f.detail ?? f.rejection}`).join('\n') || `answered ${e.status}`;
    return `${head}\n      <failure message="${escapeXml(rules)}">${escapeXml(detail)}</failure>\n    </testcase>`;
  });
  if (agentFailure !== undefined)
    cases.push(
      `    <testcase classname="reasoning-replay.agent" name="agent finished">\n      <error message="agent failed">${escapeXml(agentFailure)}</error>\n    </testcase>`,
    );
  // recovers-from-faults: one testcase per fault `--faults` named; one never injected is skipped with why.
  for (const f of faults) {
    const head = `    <testcase classname="reasoning-replay.recovers-from-faults" name="${escapeXml(f.fault)}">`;
    if (f.status === 'pass') cases.push(`${head}</testcase>`);
    else if (f.status === 'warn')
      cases.push(`${head}\n      <skipped message="${escapeXml(f.text)}"/>\n    </testcase>`);
    else
      cases.push(
        `${head}\n      <failure message="recovers-from-faults">${escapeXml(f.text)}</failure>\n    </testcase>`,
      );
  }
  const failures = entries.filter(brokeARule).length + faults.filter((f) => f.status === 'fail').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="reasoning-replay run">\n  <testsuite name="${escapeXml(suite)}" tests="${cases.length}" failures="${failures}" errors="${agentFailure !== undefined ? 1 : 0}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}
