import type { EngineFaultResult } from '../engine-faults/run-engine-faults.js';
import type { SuiteFigures } from '../suites/suite-figures.js';
import type { CompatCanaryFigures } from '../suites/compatcanary-figures.js';
import { decisionsOf } from './build-compatibility-report.js';
import type {
  CompatibilityReport,
  Decision,
  MatrixCell,
  RealWorldSection,
  RouteRow,
  ScenarioRun,
} from './compatibility-report.js';
import { explainDetail, summarizeDetail } from './explain-check.js';
import { describeProvenance, STATUS_CLASS, STATUS_SYMBOL, STATUS_WORD, UNITS_EXPLAINED } from './status-symbols.js';
import { verdictLine } from './verdict-line.js';
import { escapeXml as h, oneLine } from './xml-escape.js';
import type { FrameworksReport } from '../framework-results/frameworks-report.js';
import { renderFrameworksSection } from './frameworks-section.js';

export interface HtmlOptions {
  /**
   * Path from the directory the HTML is read in to the project root ("..", for reports/), so the
   * scenario and fixture links open from file:// without a server. Posix separators.
   */
  linkBase: string;
  /** reports/frameworks.json when present: the agent framework section (frameworks-section.ts). */
  frameworks?: FrameworksReport;
  /** reports/compatcanary.json (npm run compatcanary), when the report directory holds one. */
  compatCanary?: CompatCanaryFigures;
}

/** How long the one-line "why" under a cell or in a tooltip may be. */
const WHY_LENGTH = 240;

/**
 * compatibility.html: one self-contained file (inline CSS and JS, no fetches, no fonts), readable from
 * file://. Two layouts of the same verdicts, chosen by width alone:
 * - below 900px, one card per route: its verdict, then one line per failing or warning behaviour,
 *   so a phone answers "does route X replay reasoning correctly, and if not why" without scrolling sideways;
 * - from 900px, the route x behaviour matrix with a verdict column, sized to the page.
 * Below both, what decided each cell: every check once, one line per attempt, raw bodies folded.
 */
export function renderHtml(report: CompatibilityReport, options: HtmlOptions): string {
  const { summary } = report;
  const base = options.linkBase.replace(/\/+$/, '');
  const link = (path: string) => h(`${base ? `${base}/` : ''}${path}`);
  const verdictText = verdictLine(summary);
  const counts = (c: { pass: number; warn: number; fail: number; na: number }) =>
    `${c.pass} ${STATUS_SYMBOL.pass} · ${c.warn} ${STATUS_SYMBOL.warn} · ${c.fail} ${STATUS_SYMBOL.fail} · ${c.na} ${STATUS_SYMBOL['n/a']}`;

  const head = report.behaviours
    .map((b) => `<th scope="col" class="beh">${h(b).replace(/-/g, '-<wbr>')}</th>`)
    .join('');
  const rows = report.routes.map((r) => routeRow(r, report)).join('\n');
  const cards = report.routes.map((r) => routeCard(r, report)).join('\n');
  const details = report.routes.map((r) => routeDetails(r, report, link)).join('\n');
  const providerOptions = summary.providers.map((p) => `<option value="${h(p)}">${h(p)}</option>`).join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reasoning-replay compatibility</title>
<style>
:root { --pass: #1a7f37; --pass-bg: #dafbe1; --warn: #9a6700; --warn-bg: #fff8c5; --fail: #cf222e; --fail-bg: #ffebe9; --na: #57606a; --na-bg: #f0f3f6; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 16px 20px; color: #1f2328; background: #fff; overflow-wrap: anywhere; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
code { font: 12px ui-monospace, "SFMono-Regular", Menlo, monospace; }
.meta { font-size: 12px; color: #57606a; font-weight: 400; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; }
.pass-tone { color: var(--pass); background: var(--pass-bg); } .warn-tone { color: var(--warn); background: var(--warn-bg); }
.fail-tone { color: var(--fail); background: var(--fail-bg); } .na-tone { color: var(--na); background: var(--na-bg); }
.units { margin: 8px 0; max-width: 80ch; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.summary .box { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.summary .num { font-size: 18px; font-weight: 600; }
.controls { display: flex; gap: 8px 12px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.controls input[type=search], .controls select { max-width: 100%; }
/* Wide: the matrix, sized to the page (never wider than it). */
.wrap { border: 1px solid var(--line); border-radius: 6px; max-height: 78vh; overflow-y: auto; }
table.matrix { border-collapse: collapse; width: 100%; table-layout: fixed; }
.matrix th, .matrix td { border: 1px solid var(--line); padding: 4px 6px; }
.matrix thead th { position: sticky; top: 0; background: #f6f8fa; z-index: 1; font-size: 11px; vertical-align: bottom; box-shadow: inset 0 -1px 0 var(--line); }
.matrix col.route-col { width: 20%; } .matrix col.verdict-col { width: 72px; }
.matrix th.route { text-align: left; font-weight: 400; }
td.cell { text-align: center; font-size: 16px; font-weight: 700; padding: 0; }
td.cell a, td.cell span { display: block; padding: 6px 0; text-decoration: none; color: inherit; }
td.route-verdict { text-align: center; font-weight: 600; font-size: 13px; }
.badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; border: 1px solid var(--line); }
.badge.recorded { background: #ddf4ff; } .badge.synthesized { background: #fff8c5; } .badge.imported { background: #fbefff; }
/* Narrow: one card per route. */
.cards { display: grid; gap: 8px; }
.card { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: 8px 10px; }
.card.fail { border-left-color: var(--fail); } .card.warn { border-left-color: var(--warn); } .card.pass { border-left-color: var(--pass); } .card.na { border-left-color: var(--na); }
.card h3 { margin: 0; font-size: 14px; display: flex; justify-content: space-between; gap: 8px; align-items: baseline; }
.card ul { margin: 6px 0 0; padding-left: 0; list-style: none; }
.card li { margin: 2px 0; }
.chips { margin-top: 6px; display: flex; flex-wrap: wrap; gap: 4px; }
.chip { font-size: 11px; padding: 0 6px; border-radius: 8px; }
@media (max-width: 899px) { .wrap { display: none; } body { padding: 12px; } }
@media (min-width: 900px) { .cards { display: none; } }
details.route-detail { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details.route-detail > summary { cursor: pointer; font-weight: 600; }
.check { margin: 6px 0; padding: 6px 8px; border-left: 4px solid var(--line); }
.check:target, li:target { outline: 2px solid #0969da; }
.check h3 { font-size: 13px; margin: 0 0 4px; }
.check ul { margin: 0; padding-left: 18px; }
.why { margin: 2px 0 2px 4px; }
.why details { display: inline; } .why summary { display: inline; cursor: pointer; color: #0969da; font-size: 12px; }
.why pre { white-space: pre-wrap; font-size: 12px; background: #f6f8fa; padding: 6px; margin: 4px 0; }
li.fail { color: var(--fail); } li.warn { color: var(--warn); }
.untested { color: var(--fail); }
</style>
</head>
<body>
<h1>reasoning-replay compatibility</h1>
<div><span class="verdict ${STATUS_CLASS[summary.verdict]}-tone" id="verdict">${h(verdictText)}</span>
 <span class="meta">route table <code>${h(report.routesFile)}</code> · source: ${h(report.source)}</span></div>
<p class="units meta" id="units">${h(UNITS_EXPLAINED)}</p>
<div class="summary" id="summary">
 <div class="box"><div class="num" data-count="routes">${summary.routes}</div>routes</div>
 <div class="box"><div class="num" data-count="providers">${summary.providers.length}</div>providers</div>
 <div class="box"><div class="num" data-count="scenarios">${summary.scenarios.length}</div>scenarios</div>
 <div class="box"><div class="num" data-count="cells">${summary.cells.total}</div>cells: <span data-count="cells-split">${counts(summary.cells)}</span></div>
 <div class="box"><div class="num" data-count="runs">${summary.runs.total}</div>scenario runs: <span data-count="runs-split">${counts(summary.runs)}</span></div>
</div>
${summary.untestedRoutes.length ? `<p class="untested" id="untested">${STATUS_SYMBOL.fail} untested routes (no provider spec resolves to them): ${summary.untestedRoutes.map((r) => `<code>${h(r)}</code>`).join(', ')}</p>\n` : ''}<div class="controls">
 <label>Provider <select id="provider-filter"><option value="">all providers</option>${providerOptions}</select></label>
 <label>Filter <input id="text-filter" type="search" placeholder="route, provider, tier"></label>
 <label><input id="failing-only" type="checkbox"> failing routes only</label>
 <span id="shown-summary">showing <b id="shown-routes">${summary.routes}</b> of ${summary.routes} routes</span>
</div>
<div class="cards" id="cards">
${cards}
</div>
<div class="wrap">
<table class="matrix" id="matrix">
<colgroup><col class="route-col"><col class="verdict-col">${report.behaviours.map(() => '<col>').join('')}</colgroup>
<thead><tr><th scope="col" class="route">route</th><th scope="col">verdict</th>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
${options.frameworks ? renderFrameworksSection(options.frameworks) : ''}${report.recoversFromFaults ? faultsSection(report.recoversFromFaults) : ''}${report.realWorld ? realWorldSection(report.realWorld, link) : ''}${report.suites?.length ? suitesSection(report.suites) : ''}${options.compatCanary ? compatCanarySection(options.compatCanary) : ''}<h2>What decided each cell</h2>
<p class="meta">Each cell links here: every check for that behaviour on that route, once, with the scenario run it came from. One line per attempt; the provider's raw body is folded under "raw body".</p>
${details}
<script>
(function () {
  var select = document.getElementById('provider-filter');
  var text = document.getElementById('text-filter');
  var failing = document.getElementById('failing-only');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-route]'));
  function apply() {
    var provider = select.value, q = text.value.trim().toLowerCase(), failingOnly = failing.checked;
    var shown = {};
    items.forEach(function (el) {
      var show = (!provider || el.getAttribute('data-providers').split(' ').indexOf(provider) >= 0) &&
        (!q || el.getAttribute('data-search').indexOf(q) >= 0) &&
        (!failingOnly || el.getAttribute('data-status') === 'fail');
      el.hidden = !show;
      var detail = document.getElementById('r-' + el.getAttribute('data-route'));
      if (detail) detail.hidden = !show;
      if (show) shown[el.getAttribute('data-route')] = true;
    });
    document.getElementById('shown-routes').textContent = Object.keys(shown).length;
  }
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    var d = el.closest('details.route-detail');
    if (d) { d.open = true; el.scrollIntoView(); }
  }
  select.addEventListener('change', apply);
  text.addEventListener('input', apply);
  failing.addEventListener('change', apply);
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
</script>
</body>
</html>
`;
}

function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

function anchor(route: string, behaviour: string): string {
  return safeId(`d-${route}-${behaviour}`);
}

function runAnchor(run: string): string {
  return safeId(`run-${run}`);
}

/** The attributes the filters read, shared by a route's card and its matrix row. */
function routeData(r: RouteRow): string {
  const search = [r.route, ...r.providers, ...r.tiers, ...r.families].join(' ').toLowerCase();
  return `data-route="${h(safeId(r.route))}" data-status="${r.status}" data-providers="${h(r.providers.join(' '))}" data-search="${h(search)}"`;
}

/** "fail: must-echo, deepseek × tool-call-without-stored-reasoning: call 1 answered 400 ..." in one line. */
export function cellTitle(r: RouteRow, m: MatrixCell, report: CompatibilityReport): string {
  const decisions = decisionsOf(report, r.route, m);
  const deciding = decisions.filter((d) => d.status === m.status);
  const head = `${r.route} × ${m.behaviour}: ${STATUS_WORD[m.status]}`;
  if (decisions.length === 0) return `${head}: no scenario run exercises it on this route`;
  const first = deciding[0] ?? decisions[0]!;
  const more = deciding.length > 1 ? ` (${deciding.length} checks; first)` : '';
  return oneLine(
    `${head}${more}: ${first.scenario} on ${first.target}: ${summarizeDetail(first.detail, WHY_LENGTH)}`,
    WHY_LENGTH + 80,
  );
}

function routeRow(r: RouteRow, report: CompatibilityReport): string {
  const kinds = (['recorded', 'imported', 'synthesized'] as const).filter((k) => r.provenance[k] > 0);
  const badges = kinds.length
    ? kinds.map((k) => `<span class="badge ${k}">${k}</span>`).join(' ')
    : '<span class="badge">no fixture</span>';
  const cells = r.matrix
    .map((m) => {
      const cls = STATUS_CLASS[m.status];
      const title = cellTitle(r, m, report);
      const inner = m.checks
        ? `<a href="#${anchor(r.route, m.behaviour)}" aria-label="${h(`${m.behaviour}: ${STATUS_WORD[m.status]}`)}">${STATUS_SYMBOL[m.status]}</a>`
        : `<span aria-label="${h(`${m.behaviour}: ${STATUS_WORD[m.status]}`)}">${STATUS_SYMBOL[m.status]}</span>`;
      return `<td class="cell ${cls}-tone ${cls}" data-behaviour="${h(m.behaviour)}" title="${h(title)}">${inner}</td>`;
    })
    .join('');
  const verdict = `<td class="route-verdict ${STATUS_CLASS[r.status]}-tone" data-verdict="${r.status}">${STATUS_SYMBOL[r.status]} ${h(STATUS_WORD[r.status])}</td>`;
  return `<tr ${routeData(r)}><th scope="row" class="route"><code>${h(r.route)}</code><div class="meta">${h(r.tiers.join(', '))} · ${h(r.families.join(', '))} · ${h(r.providers.join(', '))}</div><div title="${h(describeProvenance(r.provenance))}">${badges}</div></th>${verdict}${cells}</tr>`;
}

function routeCard(r: RouteRow, report: CompatibilityReport): string {
  const cls = STATUS_CLASS[r.status];
  const problems = r.matrix
    .filter((m) => m.status === 'fail' || m.status === 'warn')
    .map((m) => {
      const first = decisionsOf(report, r.route, m).find((d) => d.status === m.status)!;
      return `<li class="${STATUS_CLASS[m.status]}"><a href="#${anchor(r.route, m.behaviour)}">${STATUS_SYMBOL[m.status]} ${h(m.behaviour)}</a>: ${h(first.target)}, ${h(summarizeDetail(first.detail, WHY_LENGTH))}</li>`;
    })
    .join('');
  const chips = r.matrix
    .filter((m) => m.status === 'pass' || m.status === 'n/a')
    .map((m) => `<span class="chip ${STATUS_CLASS[m.status]}-tone">${STATUS_SYMBOL[m.status]} ${h(m.behaviour)}</span>`)
    .join('');
  return `<article class="card ${cls}" ${routeData(r)}><h3><code>${h(r.route)}</code><span class="verdict ${cls}-tone" data-verdict="${r.status}">${STATUS_SYMBOL[r.status]} ${h(STATUS_WORD[r.status])}</span></h3><div class="meta">${h(r.tiers.join(', '))} · ${h(r.providers.join(', '))} · <a href="#${safeId(`r-${r.route}`)}">details</a></div>${problems ? `<ul>${problems}</ul>` : ''}<div class="chips">${chips}</div></article>`;
}

function routeDetails(r: RouteRow, report: CompatibilityReport, link: (p: string) => string): string {
  const blocks = r.matrix
    .filter((m) => m.checks > 0)
    .map((m) => {
      const decisions = decisionsOf(report, r.route, m).sort((a, b) => order(a) - order(b));
      // A check that passed and says nothing more is one name in a list, not a block of its own.
      const quiet = decisions.filter((d) => d.status === 'pass' && d.detail === '');
      const items = decisions.filter((d) => !quiet.includes(d)).map((d) => decisionItem(d));
      if (quiet.length)
        items.push(
          `<li class="pass">${STATUS_SYMBOL.pass} also passed in: ${h(quiet.map((d) => d.run).join(', '))}</li>`,
        );
      return `<div class="check" id="${anchor(r.route, m.behaviour)}"><h3>${STATUS_SYMBOL[m.status]} ${h(m.behaviour)}: ${STATUS_WORD[m.status]}</h3><ul>\n${items.join('\n')}\n</ul></div>`;
    })
    .join('\n');
  const runs = runsList(
    report.runs.filter((c) => c.route === r.route),
    link,
  );
  return `<details class="route-detail" id="${safeId(`r-${r.route}`)}"><summary><code>${h(r.route)}</code> ${STATUS_SYMBOL[r.status]} ${h(STATUS_WORD[r.status])} · ${h(r.providers.join(', '))} · fixtures: ${h(describeProvenance(r.provenance))}</summary>\n${blocks || '<p class="meta">no checks ran on this route</p>'}\n${runs}\n</details>`;
}

/** Deciding checks first: failures, then warnings, passes, n/a. */
function order(d: Decision): number {
  return ({ fail: 0, warn: 1, pass: 2, 'n/a': 3 } as const)[d.status];
}

/** One check: where it ran (a link to its run, which holds the fixture and calls), then one line per attempt. */
function decisionItem(d: Decision): string {
  const lines = explainDetail(d.detail);
  const source = d.findings?.find((f) => f.source)?.source;
  const why = lines
    .map(
      (l) =>
        `<div class="why">${h(l.text)}${l.raw ? ` <details><summary>raw body</summary><pre>${h(l.raw)}</pre></details>` : ''}</div>`,
    )
    .join('');
  return `<li class="${STATUS_CLASS[d.status]}">${STATUS_SYMBOL[d.status]} <a href="#${runAnchor(d.run)}">${h(d.run)}</a>${source ? ` · <a href="${h(source)}">source</a>` : ''}${why}</li>`;
}

/**
 * Each scenario run on the route once, with its fixture and calls: the checks above link here instead of repeating
 * them.
 */
function runsList(runs: ScenarioRun[], link: (p: string) => string): string {
  const ran = runs.filter((c) => c.status !== 'n/a' || c.exchanges.length > 0 || c.checks.length > 0);
  const skipped = runs.length - ran.length;
  if (ran.length === 0 && skipped === 0) return '';
  const rows = ran.map((c) => {
    const fixture = c.fixture
      ? `<a href="${link(c.fixture.path)}">fixture</a> <span class="badge ${c.fixture.provenance}">${c.fixture.provenance}</span>`
      : 'no fixture';
    const calls = c.exchanges
      .map(
        (e) =>
          `${e.call}${e.attempt === 2 ? ' (retry)' : ''} → ${e.status}${e.violations.length ? ` [${e.violations.join(', ')}]` : ''}`,
      )
      .join('; ');
    return `<li class="${STATUS_CLASS[c.status]}" id="${runAnchor(c.id)}">${STATUS_SYMBOL[c.status]} <a href="${link(`specs/scenarios/${c.scenario}.json`)}"><code>${h(c.scenario)}</code></a> on <code>${h(c.target)}</code> · ${fixture}${calls ? ` · calls: ${h(calls)}` : ''}</li>`;
  });
  const note = skipped
    ? `<p class="meta">${skipped} scenario run${skipped === 1 ? '' : 's'} not applicable to ${skipped === 1 ? 'its' : 'their'} provider (nothing sent).</p>`
    : '';
  return `<div class="check"><h3>scenario runs</h3><ul>\n${rows.join('\n')}\n</ul>${note}</div>`;
}

/** CompatCanary's figures per mock, as `npm run compatcanary` wrote them on their date. */
export function compatCanarySection(figures: CompatCanaryFigures): string {
  const rows = figures.mocks
    .map(
      (m) =>
        `<tr class="${m.fail ? 'fail' : m.warn ? 'warn' : 'pass'}"><td><code>${h(m.provider)}</code></td><td>${m.pass}</td><td>${m.warn}</td><td>${m.fail}</td><td>${h(m.notPassing.join(', '))}</td></tr>`,
    )
    .join('');
  return `<h2>CompatCanary against the OpenAI-compatible mocks</h2>\n<p>${h(figures.package)}, run on ${h(figures.date)} (<code>npm run compatcanary</code>).</p>\n<table><thead><tr><th>mock</th><th>pass</th><th>warn</th><th>fail</th><th>not passing</th></tr></thead><tbody>${rows}</tbody></table>\n`;
}

/** Other projects' published schemas (Open Responses): rendered bodies and stream events that conform, and the first departures. */
function suitesSection(suites: readonly SuiteFigures[]): string {
  const items = suites
    .map((f) => {
      const ok = f.bodies.conforming === f.bodies.checked && f.events.conforming === f.events.checked;
      const departures = f.departures.map((d) => `<li>${h(d)}</li>`).join('');
      return `<li class="${ok ? 'pass' : 'fail'}">${ok ? STATUS_SYMBOL.pass : STATUS_SYMBOL.fail} <code>${h(f.schema)}</code> (${h(f.pin)}) on ${f.specs.map((s) => `<code>${h(s)}</code>`).join(', ')}: ${f.bodies.conforming} of ${f.bodies.checked} answers and ${f.events.conforming} of ${f.events.checked} stream events conform${departures ? `<ul>${departures}</ul>` : ''}</li>`;
    })
    .join('\n');
  return `<h2>Published schemas of other projects</h2>\n<ul>\n${items}\n</ul>\n`;
}

/** How the mocks answer public real-world cases: per provider, and each disagreement in one line. */
/** recovers-from-faults for this project's engine: one line per route and fault, failures first. */
function faultsSection(results: readonly EngineFaultResult[]): string {
  const order = { fail: 0, 'not-injected': 1, pass: 2 } as const;
  const rows = [...results]
    .sort((a, b) => order[a.status] - order[b.status])
    .map(
      (r) =>
        `<tr class="${r.status === 'fail' ? 'fail' : r.status === 'pass' ? 'pass' : 'na'}"><td><code>${h(r.route)}</code> (${h(r.provider)})</td><td><code>${h(r.fault)}</code></td><td>${r.status === 'fail' ? STATUS_SYMBOL.fail : r.status === 'pass' ? STATUS_SYMBOL.pass : '·'} ${h(r.status)}</td><td>${h(oneLine(r.detail, WHY_LENGTH))}</td></tr>`,
    )
    .join('');
  return `<section id="recovers-from-faults"><h2>Recovers from faults (this project’s engine)</h2>
<p class="meta">Each route’s first provider under each fault of <code>specs/faults.json</code> that applies to it, through mocks that inject it once.</p>
<table><thead><tr><th>route (provider)</th><th>fault</th><th>verdict</th><th>why</th></tr></thead><tbody>${rows}</tbody></table></section>
`;
}

function realWorldSection(rw: RealWorldSection, link: (p: string) => string): string {
  const t = rw.total;
  const rows = rw.providers
    .map(
      (p) =>
        `<tr><td><code>${h(p.provider)}</code></td><td>${p.cases}</td><td>${p.agree}</td><td>${p.disagree}</td><td>${p.contestedDisagree}</td></tr>`,
    )
    .join('');
  const cases = rw.disagreements
    .map(
      (d) =>
        `<li class="${d.contested ? 'warn' : 'fail'}">${d.contested ? STATUS_SYMBOL.warn : STATUS_SYMBOL.fail} <a href="${link(`specs/real-world/${d.id}.json`)}"><code>${h(d.id)}</code></a> (${h(d.provider)}${d.contested ? ', contested' : ''}): ${h(oneLine(d.difference, WHY_LENGTH))}</li>`,
    )
    .join('\n');
  return `<h2 id="real-world">Real-world cases</h2>
<p>The mocks answered <b data-count="real-world-agree">${t.agree}</b> of <b data-count="real-world-cases">${t.cases}</b> public cases (${t.accepted} accepted, ${t.rejected} rejected by the real provider) as the real provider did${t.contestedDisagree ? `; ${t.contestedDisagree} contested (warning)` : ''}${t.disagree ? `; ${t.disagree} disagree` : ''}.</p>
<details><summary>per provider</summary><table class="real-world"><thead><tr><th>provider</th><th>cases</th><th>agree</th><th>disagree</th><th>contested</th></tr></thead><tbody>${rows}</tbody></table></details>
${cases ? `<ul>\n${cases}\n</ul>\n` : ''}`;
}
