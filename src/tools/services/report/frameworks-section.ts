import type { FrameworksReport } from '../framework-results/frameworks-report.js';
import { FAULT_SYMBOL, groupRows, VERDICT_SYMBOL } from '../framework-results/frameworks-report.js';
import type { FaultCell, FaultOutcome, FrameworkRow } from '../framework-results/framework-row.js';
import { escapeXml as h } from './xml-escape.js';

const TONE: Record<FrameworkRow['verdict'], string> = {
  pass: 'pass',
  warn: 'warn',
  fail: 'fail',
  'agent-failed': 'fail',
  skipped: 'na',
};

const FAULT_TONE: Record<FaultOutcome, string> = {
  survives: 'pass',
  poisoned: 'fail',
  'gave-up': 'warn',
  'not-injected': 'na',
  skipped: 'na',
};

/** The row's faults column: one chip per fault, its outcome, and (poisoned) the request that showed the damage. */
const faultChips = (cells: FaultCell[]) =>
  cells.length
    ? `<div class="fw-faults">under faults: ${cells
        .map(
          (c) =>
            `<span class="fw-chip ${FAULT_TONE[c.outcome]}-tone" title="${h(c.reason)}">${h(c.fault)} ${FAULT_SYMBOL[c.outcome]} ${h(c.outcome)}${c.damage ? ` · ${h(c.damage.request)}` : ''}</span>`,
        )
        .join(' ')}</div>`
    : '';

const chip = (label: string, r?: FrameworkRow) =>
  r
    ? `<span class="fw-chip ${TONE[r.verdict]}-tone">${h(label)} ${VERDICT_SYMBOL[r.verdict]} ${h(r.verdict)}${r.rule ? ` · ${h(r.rule)}` : ''}</span>`
    : '';

/**
 * The "Agent frameworks" section of compatibility.html, from reports/frameworks.json: per framework, one
 * card per provider package at its version with the not-streamed and streamed verdicts and the first
 * refused request (rule, carrier, why), then the bug/fix pairs with their sources. Cards flow in a grid
 * as wide as the page, so a phone reads one column and a desktop several, never scrolling sideways.
 */
export function renderFrameworksSection(report: FrameworksReport): string {
  const s = report.summary;
  const byFramework = new Map<string, ReturnType<typeof groupRows>>();
  for (const g of groupRows(report.rows)) {
    const key = `${g.head.frameworkName} @${g.head.frameworkVersion}`;
    byFramework.set(key, [...(byFramework.get(key) ?? []), g]);
  }
  const frameworks = [...byFramework.entries()]
    .map(([name, groups]) => {
      const cards = groups
        .map((g) => {
          const worst = [g.json, g.stream].find((r) => r && r.verdict !== 'pass') ?? g.head;
          const evidence = worst.evidence
            ? `<div class="fw-why"><code>${h(worst.evidence.request)}</code> → ${worst.evidence.status}: <b>${h(worst.evidence.carrier)}</b></div>`
            : '';
          const known = worst.knownIssue ? ` <a href="${h(worst.knownIssue)}">reported</a>` : '';
          const search = `${name} ${g.head.provider} ${g.head.package}`.toLowerCase();
          return `<div class="fw-card ${TONE[worst.verdict]}" data-fw-search="${h(search)}"><h4>${h(g.head.provider)} <span class="meta">${h(g.head.package)}@${h(g.head.packageVersion)}</span></h4>
<div>${chip('not streamed', g.json)} ${chip('streamed', g.stream)}</div>${faultChips([...(g.json?.faults ?? []), ...(g.stream?.faults ?? [])])}${evidence}<div class="fw-why meta">${h(worst.reason.slice(0, 240))}${known}</div></div>`;
        })
        .join('\n');
      return `<div class="fw-framework"><h3 class="fw-name">${h(name)}</h3>\n<div class="fw-grid">\n${cards}\n</div></div>`;
    })
    .join('\n');
  const pairs = report.pairs
    .map((p) => {
      const side = (label: string, x: { version: string; verdicts: string[]; met: boolean }) =>
        `<li>${h(label)} <code>${h(p.package)}@${h(x.version)}</code>: ${x.verdicts.map((v) => h(VERDICT_SYMBOL[v as FrameworkRow['verdict']] + ' ' + v)).join(', ')} ${x.met ? '(as the report says)' : '<b class="fail-tone">(not as the report says)</b>'}</li>`;
      return `<div class="fw-card ${p.bug.met && p.fixed.met ? 'pass' : 'fail'}"><h4>${h(p.framework)} × ${h(p.provider)}: ${h(p.carrier)}</h4>
<ul>${side('bug', p.bug)}${side('fixed', p.fixed)}</ul>
<div class="fw-why meta">rule <code>${h(p.rule)}</code> · <a href="${h(p.report)}">report</a> · fix: ${h(p.fix)}</div></div>`;
    })
    .join('\n');
  return `<section id="frameworks">
<style>
.fw-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); gap: 8px; }
.fw-card { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: 6px 10px; min-width: 0; }
.fw-card.fail { border-left-color: var(--fail); } .fw-card.warn { border-left-color: var(--warn); } .fw-card.pass { border-left-color: var(--pass); } .fw-card.na { border-left-color: var(--na); }
.fw-card h4 { margin: 0 0 4px; font-size: 14px; }
.fw-card ul { margin: 4px 0; padding-left: 18px; }
.fw-chip { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 8px; margin: 2px 0; }
.fw-why { margin-top: 4px; font-size: 12px; }
.fw-faults { margin-top: 4px; font-size: 12px; }
h3.fw-name { font-size: 15px; margin: 16px 0 6px; }
</style>
<h2>Agent frameworks</h2>
<p class="meta">${s.frameworks} frameworks × ${s.providers} providers, ${s.rows} runs through <code>reasoning-replay run</code> (<code>npm run frameworks</code>): ${s.verdicts.pass} ✓ pass, ${s.verdicts.warn} ! warn (a contested rule or nothing replayed: never a failure), ${s.verdicts.fail + s.verdicts['agent-failed']} ✗ fail, ${s.verdicts.skipped} – skipped. Each card: a provider package at its version, its verdict not streamed and streamed, and the first refused request with the carrier it dropped or changed.</p>
<div class="controls"><label>Find <input id="fw-filter" type="search" placeholder="framework, provider, package"></label></div>
${frameworks}
<h3 class="fw-name">Bug/fix version pairs from public reports (${s.pairsRight} of ${s.pairs} judged as reported)</h3>
<div class="fw-grid">
${pairs}
</div>
<script>
(function () {
  var input = document.getElementById('fw-filter');
  var cards = Array.prototype.slice.call(document.querySelectorAll('[data-fw-search]'));
  input.addEventListener('input', function () {
    var q = input.value.trim().toLowerCase();
    cards.forEach(function (c) { c.hidden = q && c.getAttribute('data-fw-search').indexOf(q) < 0; });
    // A framework none of whose cards match is hidden with its heading.
    Array.prototype.slice.call(document.querySelectorAll('.fw-framework')).forEach(function (f) {
      f.hidden = !f.querySelector('[data-fw-search]:not([hidden])');
    });
  });
})();
</script>
</section>
`;
}
