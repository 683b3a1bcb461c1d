import type { FrameworkMatrix } from './framework-matrix.js';
import type { FrameworkRow, FrameworkVerdict } from './framework-row.js';

/** reports/frameworks.json: every row, the pairs with both sides' verdicts, and the counts. */
export interface FrameworksReport {
  version: 1;
  summary: {
    frameworks: number;
    providers: number;
    rows: number;
    verdicts: Record<FrameworkVerdict, number>;
    pairs: number;
    pairsRight: number;
  };
  rows: FrameworkRow[];
  pairs: {
    id: string;
    framework: string;
    provider: string;
    package: string;
    rule: string;
    carrier: string;
    report: string;
    fix: string;
    bug: { version: string; verdicts: FrameworkVerdict[]; met: boolean };
    fixed: { version: string; verdicts: FrameworkVerdict[]; met: boolean };
  }[];
}

export const VERDICT_SYMBOL: Record<FrameworkVerdict, string> = {
  pass: '✓',
  warn: '!',
  fail: '✗',
  'agent-failed': '✗',
  skipped: '–',
};

export function buildFrameworksReport(matrix: FrameworkMatrix, rows: FrameworkRow[]): FrameworksReport {
  const verdicts: Record<FrameworkVerdict, number> = { pass: 0, warn: 0, fail: 0, 'agent-failed': 0, skipped: 0 };
  for (const r of rows) verdicts[r.verdict]++;
  const pairs = matrix.pairs
    .map((p) => {
      const side = (s: 'bug' | 'fixed') => {
        const own = rows.filter((r) => r.pair?.id === p.id && r.pair.side === s);
        return {
          version: p[s].version,
          verdicts: own.map((r) => r.verdict),
          met: own.length > 0 && own.every((r) => r.pair!.met),
        };
      };
      return {
        id: p.id,
        framework: p.framework,
        provider: p.provider,
        package: p.package,
        rule: p.rule,
        carrier: p.carrier,
        report: p.report,
        fix: p.fix,
        bug: side('bug'),
        fixed: side('fixed'),
      };
    })
    .filter((p) => p.bug.verdicts.length + p.fixed.verdicts.length > 0);
  const ran = rows.filter((r) => r.verdict !== 'skipped');
  return {
    version: 1,
    summary: {
      frameworks: new Set(ran.map((r) => r.framework)).size,
      providers: new Set(ran.map((r) => r.provider)).size,
      rows: rows.length,
      verdicts,
      pairs: pairs.length,
      pairsRight: pairs.filter((p) => p.bug.met && p.fixed.met).length,
    },
    rows,
    pairs,
  };
}

/** The rows of one framework@version × provider × package version, json and stream side by side. */
export function groupRows(rows: FrameworkRow[]): { head: FrameworkRow; json?: FrameworkRow; stream?: FrameworkRow }[] {
  const groups = new Map<string, { head: FrameworkRow; json?: FrameworkRow; stream?: FrameworkRow }>();
  for (const row of rows) {
    const key = `${row.framework}|${row.frameworkVersion}|${row.provider}|${row.package}@${row.packageVersion}`;
    const group = groups.get(key) ?? { head: row };
    group[row.stream ? 'stream' : 'json'] = row;
    groups.set(key, group);
  }
  return [...groups.values()];
}

const cell = (r?: FrameworkRow) =>
  r ? `${VERDICT_SYMBOL[r.verdict]} ${r.verdict}${r.rule ? ` (${r.rule})` : ''}` : '';
const md = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** reports/frameworks.md: one line per framework@version × provider, then the pairs with their sources. */
export function renderFrameworksMarkdown(report: FrameworksReport): string {
  const s = report.summary;
  const out = [
    '# Agent frameworks: does reasoning survive the round trip?',
    '',
    `${s.frameworks} frameworks × ${s.providers} providers, ${s.rows} runs through \`reasoning-replay run\`: ` +
      `${s.verdicts.pass} ✓ pass, ${s.verdicts.warn} ! warn, ${s.verdicts.fail} ✗ fail, ${s.verdicts['agent-failed']} ✗ agent failed, ${s.verdicts.skipped} – skipped. ` +
      `Bug/fix pairs judged right: ${s.pairsRight} of ${s.pairs}.`,
    '',
    'A warning is a contested rule answered as its lenient side, or a run that replayed nothing: never a failure.',
    '',
    '| framework@version | provider (package@version) | not streamed | streamed | why (first broken request: rule, carrier) |',
    '|---|---|---|---|---|',
  ];
  for (const g of groupRows(report.rows)) {
    const worst = [g.json, g.stream].find((r) => r && r.verdict !== 'pass') ?? g.head;
    const why = worst.evidence
      ? `${worst.evidence.request} → ${worst.evidence.status}: ${worst.evidence.rule}, ${worst.evidence.carrier || worst.evidence.rejection}: ${worst.reason}`
      : worst.reason;
    const known = worst.knownIssue ? ` (reported: ${worst.knownIssue})` : '';
    out.push(
      `| ${g.head.frameworkName} @${md(g.head.frameworkVersion)} | ${g.head.provider} (${g.head.package}@${g.head.packageVersion}) | ${cell(g.json)} | ${cell(g.stream)} | ${md(why + known).slice(0, 400)} |`,
    );
  }
  out.push('', '## Bug/fix version pairs from public reports', '');
  out.push('| pair | bug version | fixed version | rule | carrier | report | fix |', '|---|---|---|---|---|---|---|');
  for (const p of report.pairs) {
    const side = (x: { version: string; verdicts: FrameworkVerdict[]; met: boolean }) =>
      `${p.package}@${x.version}: ${x.verdicts.map((v) => VERDICT_SYMBOL[v]).join(' ')} ${x.met ? '(as expected)' : '(**NOT as expected**)'}`;
    out.push(
      `| ${p.id} (${p.framework} × ${p.provider}) | ${side(p.bug)} | ${side(p.fixed)} | ${p.rule} | ${md(p.carrier)} | ${p.report} | ${md(p.fix)} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
