import type { FrameworkMatrix } from './framework-matrix.js';
import type { FaultCell, FaultOutcome, FrameworkRow, FrameworkVerdict } from './framework-row.js';

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
    /** The faults column: cells by outcome over every row (absent in a report written before the column). */
    faults?: Record<FaultOutcome, number>;
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
    /** The fault the pair is judged under, when its report is about one. */
    fault?: string;
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

export const FAULT_SYMBOL: Record<FaultOutcome, string> = {
  survives: '✓',
  poisoned: '✗',
  'gave-up': '!',
  'not-injected': '·',
  skipped: '–',
};

const FAULT_OUTCOMES: FaultOutcome[] = ['survives', 'poisoned', 'gave-up', 'not-injected', 'skipped'];

/** A row's faults column in a few words: how many faults it survives, and which poisoned it. */
export function faultsSummary(cells: readonly FaultCell[] | undefined): string {
  if (!cells?.length) return '';
  return FAULT_OUTCOMES.map((o) => {
    const own = cells.filter((c) => c.outcome === o);
    if (!own.length) return '';
    return o === 'poisoned'
      ? `${FAULT_SYMBOL[o]} poisoned by ${own.map((c) => c.fault).join(', ')}`
      : `${FAULT_SYMBOL[o]} ${own.length} ${o}`;
  })
    .filter(Boolean)
    .join(' · ');
}

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
        ...(p.fault ? { fault: p.fault } : {}),
        bug: side('bug'),
        fixed: side('fixed'),
      };
    })
    .filter((p) => p.bug.verdicts.length + p.fixed.verdicts.length > 0);
  const ran = rows.filter((r) => r.verdict !== 'skipped');
  const faults = Object.fromEntries(FAULT_OUTCOMES.map((o) => [o, 0])) as Record<FaultOutcome, number>;
  for (const r of rows) if (!r.pair) for (const c of r.faults ?? []) faults[c.outcome]++;
  return {
    version: 1,
    summary: {
      frameworks: new Set(ran.map((r) => r.framework)).size,
      providers: new Set(ran.map((r) => r.provider)).size,
      rows: rows.length,
      verdicts,
      pairs: pairs.length,
      pairsRight: pairs.filter((p) => p.bug.met && p.fixed.met).length,
      faults,
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
    `Under faults (each row streamed once per fault of specs/faults.json that applies to its provider): ${FAULT_OUTCOMES.map((o) => `${s.faults?.[o] ?? 0} ${FAULT_SYMBOL[o]} ${o}`).join(', ')}. ` +
      'Poisoned: a request after the fault carried its damage; gave up: the agent stopped having sent nothing poisoned.',
    '',
    '| framework@version | provider (package@version) | not streamed | streamed | under faults | why (first broken request: rule, carrier) |',
    '|---|---|---|---|---|---|',
  ];
  for (const g of groupRows(report.rows)) {
    const worst = [g.json, g.stream].find((r) => r && r.verdict !== 'pass') ?? g.head;
    const why = worst.evidence
      ? `${worst.evidence.request} → ${worst.evidence.status}: ${worst.evidence.rule}, ${worst.evidence.carrier || worst.evidence.rejection}: ${worst.reason}`
      : worst.reason;
    const known = worst.knownIssue ? ` (reported: ${worst.knownIssue})` : '';
    out.push(
      `| ${g.head.frameworkName} @${md(g.head.frameworkVersion)} | ${g.head.provider} (${g.head.package}@${g.head.packageVersion}) | ${cell(g.json)} | ${cell(g.stream)} | ${md(faultsSummary([...(g.json?.faults ?? []), ...(g.stream?.faults ?? [])]))} | ${md(why + known).slice(0, 400)} |`,
    );
  }
  const faulted = report.rows.filter((r) => !r.pair && r.faults?.length);
  if (faulted.length) {
    out.push('', '## Under faults', '');
    out.push(
      '| framework@version | provider (package@version) | fault | outcome | injected at | why (the request that showed the damage, and the fix) |',
      '|---|---|---|---|---|---|',
    );
    for (const r of faulted)
      for (const c of r.faults!)
        out.push(
          `| ${r.frameworkName} @${md(r.frameworkVersion)} | ${r.provider} (${r.package}@${r.packageVersion}) | ${c.fault} | ${FAULT_SYMBOL[c.outcome]} ${c.outcome} | ${md(c.injected ?? '')} | ${md(c.damage ? `${c.damage.request}: ${c.damage.what}: ${c.reason}` : c.reason).slice(0, 400)} |`,
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
