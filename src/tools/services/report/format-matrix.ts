import { STATUS_LEGEND, STATUS_SYMBOL as SYMBOL } from './status-symbols.js';
import type { CellVerdict, CheckStatus, ConformanceRun } from '../../../judge/conformance/verdict.js';

export interface RunCounts {
  cells: number;
  pass: number;
  warn: number;
  fail: number;
  na: number;
  targets: number;
  routes: number;
  scenarios: number;
}

export function countRun(run: ConformanceRun): RunCounts {
  const by = (s: CheckStatus) => run.cells.filter((c) => c.status === s).length;
  return {
    cells: run.cells.length,
    pass: by('pass'),
    warn: by('warn'),
    fail: by('fail'),
    na: by('n/a'),
    targets: new Set(run.cells.map((c) => c.target)).size,
    routes: new Set(run.cells.map((c) => c.route)).size,
    scenarios: new Set(run.cells.map((c) => c.scenario)).size,
  };
}

/** The compact table `check` prints: one row per provider target, one column per scenario (numbered, with a legend). */
export function formatMatrix(run: ConformanceRun): string {
  const scenarios = [...new Set(run.cells.map((c) => c.scenario))];
  const targets = [...new Set(run.cells.map((c) => c.target))];
  const cell = new Map(run.cells.map((c) => [`${c.target}\u0000${c.scenario}`, c]));
  const rowLabel = (t: string) => {
    const any = run.cells.find((c) => c.target === t)!;
    return `${t} → ${any.route} (${any.tier})`;
  };
  const width = Math.max(...targets.map((t) => rowLabel(t).length), 'target → route'.length);
  const head = 'target → route'.padEnd(width) + '  ' + scenarios.map((_, i) => `S${i + 1}`.padEnd(4)).join('');
  const lines = [head, '-'.repeat(head.length)];
  for (const t of targets) {
    lines.push(
      rowLabel(t).padEnd(width) +
        '  ' +
        scenarios.map((s) => SYMBOL[cell.get(`${t}\u0000${s}`)?.status ?? 'n/a'].padEnd(4)).join(''),
    );
  }
  lines.push(
    '',
    `How to read it: a row is a provider target (specs/providers/) and the route (tier) the table sends it to;`,
    `column S<n> is the scenario named below; a cell is that scenario run's verdict: ${STATUS_LEGEND}`,
    `(not applicable: the scenario is written for other families or providers). Failures are listed after the matrix.`,
    '',
    ...scenarios.map((s, i) => `S${i + 1} ${s}`),
  );
  return lines.join('\n');
}

/** Each failing cell with its failing checks, one line per problem. */
export function formatFailures(cells: CellVerdict[]): string {
  const lines: string[] = [];
  for (const c of cells.filter((c) => c.status === 'fail')) {
    lines.push(`✗ ${c.target} × ${c.scenario} (route ${c.route}, ${c.tier})`);
    for (const check of c.checks.filter((k) => k.status === 'fail')) {
      for (const detail of check.detail.split('\n')) lines.push(`    [${check.behaviour}] ${detail}`);
    }
  }
  return lines.join('\n');
}

/**
 * The warnings of each scenario run, one line each, after the failures: for an engine under --engine they are the
 * choices it makes that the providers accept and that lose no reasoning, each naming the choice this project makes
 * and why (decision 0102), so the team reads them without opening the report.
 */
export function formatWarnings(cells: CellVerdict[]): string {
  const lines: string[] = [];
  for (const c of cells) {
    const warned = c.checks.filter((k) => k.status === 'warn');
    if (warned.length === 0) continue;
    lines.push(`! ${c.target} × ${c.scenario} (route ${c.route}, ${c.tier})`);
    for (const check of warned)
      for (const detail of check.detail.split('\n')) lines.push(`    [${check.behaviour}] ${detail}`);
  }
  return lines.join('\n');
}

/**
 * What the harm judge found in the table, once per provider target (the same finding sits in every
 * cell of that provider): fails first, then warnings. Each line names the provider, the turns and
 * the source.
 */
export function formatHarm(run: ConformanceRun): string {
  const lines: string[] = [];
  for (const status of ['fail', 'warn'] as const) {
    for (const a of run.harm ?? []) {
      for (const f of a.findings.filter((x) => x.status === status)) {
        lines.push(
          `${SYMBOL[status]} ${status === 'fail' ? 'harm' : 'warning'}: ${a.provider} via route ${a.route}, ${f.turns ?? 'every request'}${f.field ? `, ${f.field}` : ''}: ${f.detail}`,
        );
      }
    }
  }
  return lines.join('\n');
}
