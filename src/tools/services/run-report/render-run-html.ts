import { escapeXml as h } from '../report/xml-escape.js';
import type { TurnDiff } from './carrier-diff.js';
import type { FindingFix } from './finding-fix.js';
import type { RequestView, RuleLine, RunNote, RunReport } from './run-report.js';

export const RUN_REPORT_HTML = 'run-report.html';

const SYMBOL = { fail: '✗', warn: '!', pass: '✓' } as const;

/** A link only to a web page: a source from a hostile log must not become a `javascript:` link. */
function sourceLink(url: string, label: string): string {
  return /^https?:\/\/[^\s"'<>]+$/i.test(url) ? `<a href="${h(url)}" rel="noreferrer">${h(label)}</a>` : h(url);
}

function fixBlock(fix: FindingFix, provider: string): string {
  const said = fix.providerSays ? ` <span class="said">${h(provider)} answers: “${h(fix.providerSays)}”</span>` : '';
  const sources = fix.sources.length
    ? ` <span class="sources">${fix.sources.map((s, i) => sourceLink(s, i === 0 ? 'source' : `${i + 1}`)).join(' · ')}</span>`
    : '';
  return `<div class="fix"><b>Fix:</b> ${h(fix.fix)}.${said}${sources}</div>`;
}

const requestLinks = (ns: number[]) =>
  ns
    .slice(0, 8)
    .map((n) => `<a href="#req-${n}">${n}</a>`)
    .join(', ') + (ns.length > 8 ? ` and ${ns.length - 8} more` : '');

function ruleLine(l: RuleLine): string {
  const reqs = `request${l.requests.length === 1 ? '' : 's'} ${requestLinks(l.requests)}`;
  return `<li class="line ${l.status}" data-provider="${h(l.provider)}" data-rule="${h(l.rule)}"><div class="what">${SYMBOL[l.status]} <b>${h(l.provider)}</b> · <code>${h(l.rule)}</code> · ${reqs}: ${h(l.detail)}</div>${fixBlock(l.fix, l.provider)}</li>`;
}

function noteLine(n: RunNote): string {
  return `<li class="line ${n.status} note"><div class="what">${SYMBOL[n.status]} ${h(n.text)}</div></li>`;
}

function wantedColumn(t: TurnDiff, provider: string): string {
  const items = t.wanted.map((w) => {
    const cls = w.sent ? 'ok' : w.level === 'required' && !w.contested ? 'miss-required' : 'miss-recommended';
    const also = w.aliases.length ? ` (or ${w.aliases.map((a) => `<code>${h(a)}</code>`).join(', ')})` : '';
    return `<li class="${cls}"><code>${h(w.carrier)}</code>${also} <span class="level">${h(w.level)}${w.contested ? ', contested' : ''}</span>${w.sent ? '' : ' <span class="tag">not sent</span>'}</li>`;
  });
  const body = items.length
    ? `<ul>${items.join('')}</ul>`
    : `<p class="none">no carrier: ${h(provider)}’s spec asks none back on this turn</p>`;
  return `<div class="col wanted"><div class="col-head">wanted back by ${h(provider)}</div>${body}</div>`;
}

function sentColumn(t: TurnDiff): string {
  const wanted = new Set(t.wanted.flatMap((w) => [w.carrier, ...w.aliases]));
  const items = t.sent.map(
    (s) =>
      `<li class="${wanted.has(s.carrier) ? 'ok' : 'extra'}"><code class="path">${h(s.path)}</code> <code class="value">${h(s.preview)}</code></li>`,
  );
  const body = items.length ? `<ul>${items.join('')}</ul>` : '<p class="none">no reasoning carrier</p>';
  return `<div class="col sent"><div class="col-head">sent by the agent</div>${body}</div>`;
}

function turnBlock(t: TurnDiff, provider: string): string {
  const findings = t.findings.length
    ? `<ul class="turn-findings">${t.findings.map((f) => `<li class="${f.lenient ? 'warn' : 'fail'}">${f.lenient ? SYMBOL.warn : SYMBOL.fail} ${h(f.detail ?? f.rejection)}</li>`).join('')}</ul>`
    : '';
  return `<div class="turn ${t.status}"><div class="turn-at"><code>${h(t.at)}</code> ${h(t.role)}${t.toolCall ? ' · tool call' : ''}</div>${findings}<div class="cols">${wantedColumn(t, provider)}${sentColumn(t)}</div></div>`;
}

function requestBlock(r: RequestView): string {
  const findings = r.findings.length
    ? `<ul class="findings">${r.findings
        .map(
          (f) =>
            `<li class="${f.finding.lenient ? 'warn' : 'fail'}"><div class="what">${f.finding.lenient ? SYMBOL.warn : SYMBOL.fail} <code>${h(f.finding.rule)}</code> (${h(f.finding.rejection)}): ${h(f.line)}</div>${fixBlock(f.fix, r.provider)}</li>`,
        )
        .join('')}</ul>`
    : '';
  let diff: string;
  if (r.diff === null)
    diff =
      '<p class="none">The log holds no body for this request: write it with <code>--log-bodies</code> to see the carriers it sent.</p>';
  else if (r.diff.list === null && r.diff.byReference.length === 0)
    diff = '<p class="none">No conversation in this body (messages, contents or input).</p>';
  else {
    const byRef = r.diff.byReference.length
      ? `<p class="byref">Reasoning kept by the provider, named by id: <code>${h(r.diff.byReference.join(', '))}</code></p>`
      : '';
    const turns = r.diff.turns.length
      ? r.diff.turns.map((t) => turnBlock(t, r.provider)).join('')
      : '<p class="none">No assistant turn in this conversation yet: nothing to send back.</p>';
    diff = `<div class="diff">${byRef}${turns}</div>`;
  }
  const where = [
    `call ${r.call}`,
    `seq ${r.seq}`,
    ...(r.runId ? [`run ${r.runId}`] : []),
    r.client,
    `route ${r.route}`,
  ];
  return `<details class="req ${r.verdict}" id="req-${r.n}"${r.verdict === 'pass' ? '' : ' open'}><summary>${SYMBOL[r.verdict]} <b>request ${r.n}</b> · ${h(r.provider)} · <code>${h(`${r.method} ${r.path}`)}</code> → ${r.status}</summary><div class="meta">${h(where.join(' · '))}</div>${findings}${diff}</details>`;
}

/**
 * run-report.html: one self-contained page (inline CSS, no script, no fetch; a CSP forbids anything else), readable
 * from file://. Failures first, one line per rule x provider with the fix; then the contested rules, as warnings;
 * then each request, the carriers its provider wanted back beside those the agent sent: side by side on a wide
 * screen, one above the other on a narrow one. Every string from the log is escaped.
 */
export function renderRunHtml(report: RunReport): string {
  const fails = report.notes.filter((n) => n.status === 'fail');
  const warns = report.notes.filter((n) => n.status === 'warn');
  const count = (v: RequestView['verdict']) => report.requests.filter((r) => r.verdict === v).length;
  const who = report.clients.length === 1 ? report.clients[0]! : `${report.clients.length} clients`;
  const failures =
    report.failures.length + fails.length
      ? `<ol class="lines" id="failure-lines">${report.failures.map(ruleLine).join('')}${fails.map(noteLine).join('')}</ol>`
      : '<p class="none" id="no-failures">No rule was broken.</p>';
  const warnings =
    report.warnings.length + warns.length
      ? `<p class="meta">A contested rule is one public sources disagree on: the mock answered as the lenient side and warns (<code>--strict</code> refuses).</p><ol class="lines" id="warning-lines">${report.warnings.map(ruleLine).join('')}${warns.map(noteLine).join('')}</ol>`
      : '<p class="none">No warnings.</p>';
  const nf = report.failures.length + fails.length;
  const failuresHead = nf
    ? `${SYMBOL.fail} Failures: ${report.failures.length} rule × provider${fails.length ? `, ${fails.length} about the agent` : ''}`
    : 'Failures';
  const nw = report.warnings.length + warns.length;
  const warningsHead = nw
    ? `${SYMBOL.warn} Warnings: ${report.warnings.length} contested rule × provider${warns.length ? `, ${warns.length} about the run` : ''}`
    : 'Warnings';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>reasoning-replay run report: ${h(who)}</title>
<style>
:root { --pass: #1a7f37; --pass-bg: #dafbe1; --warn: #9a6700; --warn-bg: #fff8c5; --fail: #cf222e; --fail-bg: #ffebe9; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 16px 20px; max-width: 1200px; color: #1f2328; background: #fff; overflow-wrap: anywhere; }
h1 { font-size: 20px; margin: 0 0 6px; } h2 { font-size: 16px; margin: 22px 0 8px; }
code { font: 12px ui-monospace, "SFMono-Regular", Menlo, monospace; }
.meta, .none { color: var(--muted); font-size: 12px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; }
.fail-tone { color: var(--fail); background: var(--fail-bg); } .warn-tone { color: var(--warn); background: var(--warn-bg); } .pass-tone { color: var(--pass); background: var(--pass-bg); }
ol.lines { list-style: none; padding: 0; margin: 0; display: grid; gap: 6px; }
.line { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: 6px 10px; }
.line.fail { border-left-color: var(--fail); } .line.warn { border-left-color: var(--warn); }
.line.fail > .what { color: var(--fail); } .line.warn > .what { color: var(--warn); }
.fix { margin-top: 2px; } .said { color: var(--muted); } .sources { font-size: 12px; }
details.req { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; margin: 8px 0; padding: 4px 10px 8px; }
details.req.fail { border-left-color: var(--fail); } details.req.warn { border-left-color: var(--warn); } details.req.pass { border-left-color: var(--pass); }
details.req > summary { cursor: pointer; padding: 2px 0; }
ul.findings, ul.turn-findings { list-style: none; padding: 0; margin: 6px 0; }
ul.findings > li { margin: 4px 0; }
li.fail > .what, ul.turn-findings li.fail { color: var(--fail); } li.warn > .what, ul.turn-findings li.warn { color: var(--warn); }
.turn { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 6px 8px; }
.turn.refused { border-color: var(--fail); } .turn.warned, .turn.missing { border-color: var(--warn); }
.turn-at { font-weight: 600; margin-bottom: 4px; }
/* The diff: wanted beside sent on a wide screen, one above the other on a narrow one. */
.cols { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 8px; }
@media (max-width: 700px) { .cols { grid-template-columns: minmax(0, 1fr); } body { padding: 12px; } }
.col { min-width: 0; background: #f6f8fa; border-radius: 4px; padding: 4px 8px; }
.col-head { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.col ul { list-style: none; margin: 2px 0; padding: 0; }
.col li { margin: 2px 0; padding: 1px 4px; border-radius: 3px; }
.col li.ok { background: var(--pass-bg); } .col li.miss-required { background: var(--fail-bg); color: var(--fail); } .col li.miss-recommended { background: var(--warn-bg); color: var(--warn); }
.col .value { white-space: pre-wrap; word-break: break-all; color: #3b4048; }
.level, .tag { font-size: 11px; color: var(--muted); } li.miss-required .tag { color: var(--fail); font-weight: 600; }
.byref { margin: 4px 0; }
</style>
</head>
<body>
<h1>reasoning-replay run report</h1>
<p><span class="verdict ${report.verdict}-tone" id="verdict">${h(report.headline)}</span></p>
<p class="meta" id="counts">${h(who)} · ${report.requests.length} requests: ${count('fail')} refused, ${count('warn')} with warnings, ${count('pass')} accepted${report.runIds.length ? ` · run ${h(report.runIds.join(', '))}` : ''}</p>
<section id="failures"><h2>${failuresHead}</h2>
${failures}
</section>
<section id="warnings"><h2>${warningsHead}</h2>
${warnings}
</section>
<section id="requests"><h2>Requests</h2>
<p class="meta">Each request the agent sent, in order: the reasoning carriers its provider wants back on each assistant turn (from the provider’s spec), beside the carriers the request held. Green: wanted and sent; red: required and not sent; yellow: recommended (or contested) and not sent.</p>
${report.requests.map(requestBlock).join('\n')}
</section>
</body>
</html>
`;
}
