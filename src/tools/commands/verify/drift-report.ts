import { XMLBuilder } from 'fast-xml-parser';
import { join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import { redactText, type SecretValue } from '../../services/recorder/redact.js';
import { oneLine, xmlSafe } from '../../services/report/xml-escape.js';
import { CATEGORY_LABEL, type DriftCategory } from './classify.js';
import type { RunOutput } from './run-verify.js';
import { resultLabel, type VerifyResult } from './verify-result.js';

const CATEGORIES: readonly DriftCategory[] = ['agrees', 'mock-too-strict', 'mock-too-lenient', 'wording-changed'];
const OTHER = ['inconclusive', 'error', 'skipped', 'not-run'] as const;

export type Counts = Record<DriftCategory | (typeof OTHER)[number], number>;
const zero = (): Counts => Object.fromEntries([...CATEGORIES, ...OTHER].map((k) => [k, 0])) as unknown as Counts;

const bucket = (r: VerifyResult): keyof Counts => (r.outcome === 'compared' ? r.category! : r.outcome);

/** The drift report: what `verify --live` writes as drift.json and renders as Markdown and JUnit. */
export interface DriftReport {
  startedAt: string;
  finishedAt: string;
  caps: { maxRequests: number; maxCost: number; maxTimeMs: number; timeoutMs: number };
  spend: { requests: number; chargedUsd: number; reportedUsd: number };
  stopped?: RunOutput['stopped'];
  totals: Counts;
  /** Per provider, per rule: the four categories (and what was not compared). */
  providers: Array<{ provider: string; totals: Counts; rules: Array<{ rule: string } & Counts> }>;
  results: VerifyResult[];
  /** The new real-world case files, relative to the output folder. */
  casesWritten: string[];
}

export function buildDriftReport(run: RunOutput, timeoutMs: number): DriftReport {
  const totals = zero();
  const providers = new Map<string, { totals: Counts; rules: Map<string, Counts> }>();
  for (const r of run.results) {
    const b = bucket(r);
    totals[b]++;
    let p = providers.get(r.provider);
    if (!p) providers.set(r.provider, (p = { totals: zero(), rules: new Map() }));
    p.totals[b]++;
    if (r.outcome === 'compared') {
      const rule = r.rule ?? 'accepted';
      let counts = p.rules.get(rule);
      if (!counts) p.rules.set(rule, (counts = zero()));
      counts[b]++;
    }
  }
  return {
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    caps: { ...run.guard.caps, timeoutMs },
    spend: { requests: run.guard.sent, chargedUsd: run.guard.charged, reportedUsd: run.guard.reported },
    ...(run.stopped ? { stopped: run.stopped } : {}),
    totals,
    providers: [...providers.entries()].map(([provider, p]) => ({
      provider,
      totals: p.totals,
      rules: [...p.rules.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([rule, counts]) => ({ rule, ...counts })),
    })),
    results: run.results,
    casesWritten: run.results.flatMap((r) => (r.caseFile ? [r.caseFile] : [])),
  };
}

export const disagreements = (report: DriftReport) =>
  report.results.filter((r) => r.outcome === 'compared' && r.category !== 'agrees');

const usd = (n: number) => `$${n.toFixed(4)}`;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** Markdown for a pull request or a terminal: totals, the provider x rule table, each disagreement, what was not compared. */
export function renderDriftMarkdown(report: DriftReport): string {
  const t = report.totals;
  const lines = [
    '# Live verification: the mocks against the live providers',
    '',
    `${report.startedAt} to ${report.finishedAt}. ${report.spend.requests} request(s) sent (cap ${report.caps.maxRequests}); ` +
      `estimated spend ${usd(report.spend.chargedUsd)} (cap ${usd(report.caps.maxCost)}), ${usd(report.spend.reportedUsd)} by the answers' own usage.`,
    '',
    `**${t.agrees} agree, ${t['mock-too-strict']} mock too strict, ${t['mock-too-lenient']} mock too lenient, ${t['wording-changed']} wording changed**` +
      `; ${t.inconclusive} inconclusive, ${t.error} error(s), ${t.skipped} skipped, ${t['not-run']} not run.`,
  ];
  if (report.stopped) lines.push('', `> **Stopped:** ${report.stopped.message}`);
  lines.push(
    '',
    '| provider | rule | agrees | mock too strict | mock too lenient | wording changed |',
    '|---|---|---|---|---|---|',
  );
  for (const p of report.providers)
    for (const r of p.rules)
      lines.push(
        `| ${p.provider} | ${cell(r.rule)} | ${r.agrees} | ${r['mock-too-strict']} | ${r['mock-too-lenient']} | ${r['wording-changed']} |`,
      );
  const differ = disagreements(report);
  if (differ.length > 0) {
    lines.push('', '## Disagreements', '');
    for (const r of differ)
      lines.push(
        `- **${CATEGORY_LABEL[r.category!]}** ${r.provider} ${resultLabel(r)} (rule ${r.rule}): ${cell(r.detail)}. ` +
          `Mock: ${cell(r.mock ?? '')}; live: ${cell(r.live ?? '')}. ` +
          (r.caseFile
            ? `New case: \`real-world/${r.caseFile}\`.`
            : `No case written: ${cell(r.caseRefused ?? 'unknown')}.`),
      );
  }
  const notCompared = report.results.filter((r) => r.outcome !== 'compared');
  if (notCompared.length > 0) {
    lines.push('', '## Not compared', '');
    const byReason = new Map<string, VerifyResult[]>();
    for (const r of notCompared) {
      const key = `${r.outcome}: ${r.outcome === 'skipped' || r.outcome === 'not-run' ? r.detail.replace(/"[^"]*"/g, '…') : r.detail}`;
      byReason.set(key, [...(byReason.get(key) ?? []), r]);
    }
    for (const [reason, rs] of byReason)
      lines.push(
        `- ${cell(reason)} (${rs.length}): ${rs
          .slice(0, 6)
          .map((r) => `${r.provider} ${resultLabel(r)}`)
          .join(', ')}${rs.length > 6 ? `, and ${rs.length - 6} more` : ''}`,
      );
  }
  return lines.join('\n') + '\n';
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

/** JUnit: one testsuite per provider, one testcase per result; a disagreement fails, no answer errs, the rest is skipped. */
export function renderDriftJunit(report: DriftReport): string {
  type Node = { [key: string]: string | number | Node | Node[] };
  const suites: Node[] = report.providers.map((p) => {
    const rs = report.results.filter((r) => r.provider === p.provider);
    return {
      '@_name': xmlSafe(`verify ${p.provider}`),
      '@_tests': rs.length,
      '@_failures': p.totals['mock-too-strict'] + p.totals['mock-too-lenient'] + p.totals['wording-changed'],
      '@_errors': p.totals.error,
      '@_skipped': p.totals.skipped + p.totals['not-run'] + p.totals.inconclusive,
      testcase: rs.map((r) => {
        const node: Node = {
          '@_classname': xmlSafe(`reasoning-replay.verify.${r.provider}.${r.rule ?? r.outcome}`),
          '@_name': xmlSafe(resultLabel(r)),
        };
        const message = xmlSafe(oneLine(r.detail, 300));
        if (r.outcome === 'compared' && r.category !== 'agrees')
          node.failure = {
            '@_type': r.category!,
            '@_message': xmlSafe(oneLine(`${CATEGORY_LABEL[r.category!]}: ${r.detail}`, 300)),
            '#text': xmlSafe(`mock: ${r.mock ?? ''}\nlive: ${r.live ?? ''}`),
          };
        else if (r.outcome === 'error') node.error = { '@_type': 'no-answer', '@_message': message };
        else if (r.outcome !== 'compared')
          node.skipped = { '@_message': xmlSafe(oneLine(`${r.outcome}: ${r.detail}`, 300)) };
        return node;
      }),
    };
  });
  const t = report.totals;
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': 'reasoning-replay verify --live',
      '@_tests': report.results.length,
      '@_failures': t['mock-too-strict'] + t['mock-too-lenient'] + t['wording-changed'],
      '@_errors': t.error,
      testsuite: suites,
    },
  }) as string;
}

/** Every string of a value through the printed-line redaction (known secrets in every spelling, credential shapes). */
function redactStrings<T>(value: T, secrets: readonly SecretValue[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** drift.json, drift.md and drift.junit.xml in `dir`, each written atomically, every string redacted first. */
export function writeDriftReport(report: DriftReport, dir: string, secrets: readonly SecretValue[]): string[] {
  const clean = redactStrings(report, secrets);
  ensureDir(dir);
  const files: Array<[string, string]> = [
    ['drift.json', JSON.stringify(clean, null, 2) + '\n'],
    ['drift.md', renderDriftMarkdown(clean)],
    ['drift.junit.xml', renderDriftJunit(clean)],
  ];
  for (const [name, text] of files) writeFileAtomic(join(dir, name), text);
  return files.map(([name]) => name);
}
