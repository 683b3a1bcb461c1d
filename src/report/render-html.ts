import type { CompatibilityReport, Decision, RouteRow, ScenarioCell } from './compatibility-report.js';
import { describeProvenance, STATUS_SYMBOL, STATUS_WORD } from './status-symbols.js';
import { escapeXml as h } from './xml-escape.js';
import { verdictLine } from './verdict-line.js';

export interface HtmlOptions {
  /**
   * Path from the directory the HTML is read in to the project root ("..", for reports/), so the
   * scenario and fixture links open from file:// without a server. Posix separators.
   */
  linkBase: string;
}

/**
 * compatibility.html: one self-contained file (inline CSS and JS, no fetches, no fonts), readable from
 * file://. Route x behaviour matrix with colour AND symbol per state, sticky header row and route
 * column, a provider filter, each cell linking to the scenario checks and fixtures that decided it.
 */
export function renderHtml(report: CompatibilityReport, options: HtmlOptions): string {
  const { summary } = report;
  const base = options.linkBase.replace(/\/+$/, '');
  const link = (path: string) => h(`${base ? `${base}/` : ''}${path}`);
  const verdictText = verdictLine(summary);

  const head = report.behaviours.map((b) => `<th scope="col" class="beh">${h(b).replace(/-/g, '-<wbr>')}</th>`).join('');
  const rows = report.routes.map((r) => routeRow(r)).join('\n');
  const details = report.routes.map((r) => routeDetails(r, report.cells, link)).join('\n');
  const providerOptions = summary.providers.map((p) => `<option value="${h(p)}">${h(p)}</option>`).join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reasoning-replay compatibility</title>
<style>
:root { --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9; --na: #57606a; --na-bg: #eaeef2; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 16px 20px; color: #1f2328; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
code { font: 12px ui-monospace, "SFMono-Regular", Menlo, monospace; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; }
.verdict.pass { color: var(--pass); background: var(--pass-bg); }
.verdict.fail { color: var(--fail); background: var(--fail-bg); }
.summary { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.summary .box { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 120px; }
.summary .num { font-size: 20px; font-weight: 600; }
.summary .pass .num { color: var(--pass); } .summary .fail .num { color: var(--fail); } .summary .na .num { color: var(--na); }
.controls { display: flex; gap: 12px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.wrap { overflow: auto; max-height: 78vh; border: 1px solid var(--line); border-radius: 6px; }
table.matrix { border-collapse: separate; border-spacing: 0; width: max-content; min-width: 100%; }
.matrix th, .matrix td { border-bottom: 1px solid var(--line); border-right: 1px solid var(--line); padding: 4px 6px; }
.matrix thead th { position: sticky; top: 0; background: #f6f8fa; z-index: 2; font-size: 12px; vertical-align: bottom; }
.matrix th.beh { width: 84px; text-align: center; }
.matrix .route { position: sticky; left: 0; background: #fff; z-index: 1; text-align: left; min-width: 170px; }
.matrix thead th.route { z-index: 3; background: #f6f8fa; }
.matrix .meta { font-size: 12px; color: #57606a; font-weight: 400; }
.matrix td.providers { max-width: 180px; }
td.cell { text-align: center; font-size: 16px; font-weight: 700; padding: 0; }
td.cell a, td.cell span { display: block; padding: 6px 0; text-decoration: none; color: inherit; }
td.pass { color: var(--pass); background: var(--pass-bg); }
td.fail { color: var(--fail); background: var(--fail-bg); }
td.na { color: var(--na); background: var(--na-bg); font-weight: 400; }
.badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; border: 1px solid var(--line); }
.badge.recorded { background: #ddf4ff; } .badge.synthesized { background: #fff8c5; }
details.route-detail { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details.route-detail > summary { cursor: pointer; font-weight: 600; }
.check { margin: 6px 0; padding: 6px 8px; border-left: 4px solid var(--line); }
.check:target, li:target { outline: 2px solid #0969da; }
.check h3 { font-size: 13px; margin: 0 0 4px; }
.check ul { margin: 0; padding-left: 18px; }
li.pass::marker { color: var(--pass); } li.fail::marker { color: var(--fail); } li.na::marker { color: var(--na); }
li.fail { color: var(--fail); }
.legend span { margin-right: 12px; }
.untested { color: var(--fail); }
</style>
</head>
<body>
<h1>reasoning-replay compatibility</h1>
<div><span class="verdict ${summary.verdict}" id="verdict">${h(verdictText)}</span>
 <span class="meta">route table <code>${h(report.routesFile)}</code> · source: ${h(report.source)}</span></div>
<div class="summary" id="summary">
 <div class="box"><div class="num" data-count="routes">${summary.routes}</div>routes</div>
 <div class="box"><div class="num" data-count="providers">${summary.providers.length}</div>providers</div>
 <div class="box"><div class="num" data-count="scenarios">${summary.scenarios.length}</div>scenarios</div>
 <div class="box pass"><div class="num" data-count="matrix-pass">${summary.matrix.pass}</div>${STATUS_SYMBOL.pass} pass cells</div>
 <div class="box fail"><div class="num" data-count="matrix-fail">${summary.matrix.fail}</div>${STATUS_SYMBOL.fail} fail cells</div>
 <div class="box na"><div class="num" data-count="matrix-na">${summary.matrix.na}</div>${STATUS_SYMBOL['n/a']} n/a cells</div>
 <div class="box"><div class="num" data-count="scenario-cells">${summary.scenarioCells.total}</div>scenario runs (${summary.scenarioCells.pass} ${STATUS_SYMBOL.pass}, ${summary.scenarioCells.fail} ${STATUS_SYMBOL.fail}, ${summary.scenarioCells.na} ${STATUS_SYMBOL['n/a']})</div>
</div>
${summary.untestedRoutes.length ? `<p class="untested" id="untested">${STATUS_SYMBOL.fail} untested routes (no provider spec resolves to them): ${summary.untestedRoutes.map((r) => `<code>${h(r)}</code>`).join(', ')}</p>\n` : ''}<div class="controls">
 <label>Provider <select id="provider-filter"><option value="">all providers</option>${providerOptions}</select></label>
 <label>Filter <input id="text-filter" type="search" placeholder="route, provider, tier"></label>
 <label><input id="failing-only" type="checkbox"> failing routes only</label>
 <span id="shown-summary">showing <b id="shown-routes">${summary.routes}</b> of ${summary.routes} routes: <b id="shown-pass">${summary.matrix.pass}</b> ${STATUS_SYMBOL.pass} <b id="shown-fail">${summary.matrix.fail}</b> ${STATUS_SYMBOL.fail} <b id="shown-na">${summary.matrix.na}</b> ${STATUS_SYMBOL['n/a']}</span>
 <span class="legend"><span>${STATUS_SYMBOL.pass} pass</span><span>${STATUS_SYMBOL.fail} fail</span><span>${STATUS_SYMBOL['n/a']} not applicable</span></span>
</div>
<div class="wrap">
<table class="matrix" id="matrix">
<thead><tr><th scope="col" class="route">route</th><th scope="col">providers</th><th scope="col">fixtures</th>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
<h2>What decided each cell</h2>
<p class="meta">Each matrix cell links here: every scenario check for that behaviour on that route, with the scenario and fixture it ran on.</p>
${details}
<script>
(function () {
  var select = document.getElementById('provider-filter');
  var text = document.getElementById('text-filter');
  var failing = document.getElementById('failing-only');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#matrix tbody tr[data-route]'));
  function apply() {
    var provider = select.value, q = text.value.trim().toLowerCase(), failingOnly = failing.checked;
    var n = 0, pass = 0, fail = 0, na = 0;
    rows.forEach(function (row) {
      var show = (!provider || row.getAttribute('data-providers').split(' ').indexOf(provider) >= 0) &&
        (!q || row.getAttribute('data-search').indexOf(q) >= 0) &&
        (!failingOnly || row.querySelector('td.cell.fail') !== null);
      row.hidden = !show;
      var detail = document.getElementById('r-' + row.getAttribute('data-route'));
      if (detail) detail.hidden = !show;
      if (!show) return;
      n += 1;
      pass += row.querySelectorAll('td.cell.pass').length;
      fail += row.querySelectorAll('td.cell.fail').length;
      na += row.querySelectorAll('td.cell.na').length;
    });
    document.getElementById('shown-routes').textContent = n;
    document.getElementById('shown-pass').textContent = pass;
    document.getElementById('shown-fail').textContent = fail;
    document.getElementById('shown-na').textContent = na;
  }
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    var d = el.closest('details');
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

function anchor(route: string, behaviour: string): string {
  return `d-${route}-${behaviour}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

function routeAnchor(route: string): string {
  return `r-${route}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

function routeRow(r: RouteRow): string {
  const search = [r.route, ...r.providers, ...r.tiers, ...r.families].join(' ').toLowerCase();
  const provenance = describeProvenance(r.provenance);
  const kinds = (['recorded', 'synthesized'] as const).filter((k) => r.provenance[k] > 0);
  const badges = kinds.length ? kinds.map((k) => `<span class="badge ${k}">${k}</span>`).join(' ') : '<span class="badge">none</span>';
  const cells = r.matrix
    .map((m) => {
      const cls = m.status === 'n/a' ? 'na' : m.status;
      const title = `${r.route} × ${m.behaviour}: ${STATUS_WORD[m.status]} (${m.decisions.length} check${m.decisions.length === 1 ? '' : 's'})`;
      const inner = m.decisions.length
        ? `<a href="#${anchor(r.route, m.behaviour)}" aria-label="${h(title)}">${STATUS_SYMBOL[m.status]}</a>`
        : `<span aria-label="${h(title)}">${STATUS_SYMBOL[m.status]}</span>`;
      return `<td class="cell ${cls}" data-behaviour="${h(m.behaviour)}" title="${h(title)}">${inner}</td>`;
    })
    .join('');
  return `<tr data-route="${h(routeAnchor(r.route).slice(2))}" data-providers="${h(r.providers.join(' '))}" data-search="${h(search)}"><th scope="row" class="route"><code>${h(r.route)}</code><div class="meta">${h(r.tiers.join(', '))} · ${h(r.families.join(', '))}</div></th><td class="meta providers">${h(r.providers.join(', '))}</td><td title="${h(provenance)}">${badges}</td>${cells}</tr>`;
}

function routeDetails(r: RouteRow, cells: ScenarioCell[], link: (p: string) => string): string {
  const blocks = r.matrix
    .filter((m) => m.decisions.length > 0)
    .map((m) => {
      const items = [...m.decisions]
        .sort((a, b) => order(a) - order(b))
        .map((d) => decisionItem(d, link))
        .join('\n');
      return `<div class="check" id="${anchor(r.route, m.behaviour)}"><h3>${STATUS_SYMBOL[m.status]} ${h(m.behaviour)}: ${STATUS_WORD[m.status]}</h3><ul>\n${items}\n</ul></div>`;
    })
    .join('\n');
  const runs = runsTable(cells.filter((c) => c.route === r.route), link);
  return `<details class="route-detail" id="${routeAnchor(r.route)}"><summary><code>${h(r.route)}</code> · ${h(r.providers.join(', '))} · fixtures: ${h(describeProvenance(r.provenance))}</summary>\n${blocks || '<p class="meta">no checks ran on this route</p>'}\n${runs}\n</details>`;
}

/** Deciding checks first: failures, then passes, then n/a. */
function order(d: Decision): number {
  return d.status === 'fail' ? 0 : d.status === 'pass' ? 1 : 2;
}

function decisionItem(d: Decision, link: (p: string) => string): string {
  const cls = d.status === 'n/a' ? 'na' : d.status;
  const scenario = `<a href="${link(`specs/scenarios/${d.scenario}.json`)}"><code>${h(d.scenario)}</code></a>`;
  const fixture = d.fixture ? `<a href="${link(d.fixture.path)}">fixture</a> <span class="badge ${d.fixture.provenance}">${d.fixture.provenance}</span>` : 'no fixture';
  return `<li class="${cls}">${STATUS_SYMBOL[d.status]} ${scenario} on <code>${h(d.target)}</code> · ${fixture} · <a href="#${runAnchor(d.cell)}">calls</a><br>${h(d.detail)}</li>`;
}

function runAnchor(cell: string): string {
  return `run-${cell}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Each scenario run on the route once, with its calls: the decisions above link here instead of repeating them. */
function runsTable(cells: ScenarioCell[], link: (p: string) => string): string {
  if (cells.length === 0) return '';
  const rows = cells.map((c) => {
    const cls = c.status === 'n/a' ? 'na' : c.status;
    const fixture = c.fixture
      ? `<a href="${link(c.fixture.path)}"><code>${h(c.fixture.path)}</code></a> <span class="badge ${c.fixture.provenance}">${c.fixture.provenance}</span>`
      : 'no fixture';
    const calls = c.exchanges.map((e) => `${e.call}${e.attempt === 2 ? ' (retry)' : ''} → ${e.status}${e.violations.length ? ` [${e.violations.join(', ')}]` : ''}`).join('; ');
    return `<li class="${cls}" id="${runAnchor(c.id)}">${STATUS_SYMBOL[c.status]} <code>${h(c.scenario)}</code> on <code>${h(c.target)}</code> · ${fixture}${calls ? ` · calls: ${h(calls)}` : ''}</li>`;
  });
  return `<div class="check"><h3>scenario runs</h3><ul>\n${rows.join('\n')}\n</ul></div>`;
}
