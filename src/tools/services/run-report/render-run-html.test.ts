import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/findings/finding.js';
import { renderRunHtml } from './render-run-html.js';
import { runReport } from './run-report.js';
import { deepseekBody, deepseekEntry, entry, specs } from './run-report.test-helper.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>&amp;'`;

function sampleHtml() {
  const entries = [
    deepseekEntry(1, deepseekBody({ reasoning: true })),
    deepseekEntry(2, deepseekBody({ reasoning: true, plainAnswer: true })),
    deepseekEntry(3, deepseekBody({ reasoning: false })),
    entry(4, 'mistral', 400, [
      { rule: 'strict-schema', rejection: 'extra-forbidden', params: { field: 'reasoning_content' }, detail: 'x' },
    ]),
  ];
  const report = runReport(entries, specs);
  return { report, html: renderRunHtml(report) };
}

/** The positions of the first occurrence of each marker, to assert what comes before what. */
const at = (html: string, marker: string) => {
  const i = html.indexOf(marker);
  expect(i, marker).toBeGreaterThan(-1);
  return i;
};

describe('renderRunHtml', () => {
  it('puts the failures first, then the warnings, then the requests', () => {
    const { html } = sampleHtml();
    expect(at(html, 'id="failures"')).toBeLessThan(at(html, 'id="warnings"'));
    expect(at(html, 'id="warnings"')).toBeLessThan(at(html, 'id="requests"'));
    // The first line of any kind on the page is a failure line.
    expect(at(html, '<li class="line fail"')).toBeLessThan(at(html, '<li class="line warn"'));
    expect(html.indexOf('<li class="line')).toBe(at(html, '<li class="line fail"'));
  });

  it('one line per rule x provider, with its fix; the contested rule only among the warnings', () => {
    const { report, html } = sampleHtml();
    const failures = html.slice(at(html, 'id="failures"'), at(html, 'id="warnings"'));
    const warnings = html.slice(at(html, 'id="warnings"'), at(html, 'id="requests"'));
    const lines = [...failures.matchAll(/<li class="line fail" data-provider="([^"]+)" data-rule="([^"]+)"/g)];
    expect(lines.map((m) => `${m[1]} ${m[2]}`)).toEqual(report.failures.map((l) => `${l.provider} ${l.rule}`));
    expect(lines.map((m) => `${m[1]} ${m[2]}`)).toEqual(['deepseek must-echo', 'mistral strict-schema']);
    expect(failures.match(/<div class="fix">/g)).toHaveLength(2);
    expect(failures).toContain('send back reasoning_content on every assistant turn that called a tool');
    expect(warnings).toMatch(/<li class="line warn" data-provider="deepseek" data-rule="must-echo">/);
    expect(warnings).toContain('contested rule reasoning-content-not-passed-back');
    expect(failures).not.toContain('contested rule');
  });

  it('shows each request’s carriers wanted back beside those sent, refused requests open', () => {
    const { html } = sampleHtml();
    const refused = html.slice(at(html, 'id="req-3"'), at(html, 'id="req-4"'));
    expect(refused).toMatch(/^id="req-3" open>/);
    expect(refused).toContain('<div class="turn refused">');
    expect(refused).toMatch(/class="col wanted">.*<li class="miss-required"><code>reasoning_content<\/code>/);
    expect(refused).toContain('<p class="none">no reasoning carrier</p>');
    const accepted = html.slice(at(html, 'id="req-1"'), at(html, 'id="req-2"'));
    expect(accepted).not.toMatch(/^id="req-1" open/);
    expect(accepted).toContain('<code class="value">&quot;I should search the notes.&quot;</code>');
    // A request logged without its body says how to get one.
    expect(html.slice(at(html, 'id="req-4"'))).toContain('--log-bodies');
  });

  it('escapes every string from the log, links only http(s) sources, and loads nothing', () => {
    const finding: Finding = {
      rule: HOSTILE,
      rejection: HOSTILE,
      params: { path: HOSTILE },
      detail: HOSTILE,
      contested: true,
      lenient: true,
      sources: ['javascript:alert(1)', `https://example.com/"><script>`],
    };
    const body = { messages: [{ role: 'assistant', content: HOSTILE, [HOSTILE]: 1, reasoning_content: HOSTILE }] };
    const hostile = entry(1, 'deepseek', 200, [finding], body, { client: HOSTILE, path: HOSTILE, runId: HOSTILE });
    const html = renderRunHtml(
      runReport([hostile, { ...hostile, provider: HOSTILE, status: 500 }], specs, {
        notes: [{ status: 'fail', text: HOSTILE }],
      }),
    );
    expect(html).not.toMatch(/<script|<img|onerror=alert\(1\)>/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toContain('href="https://example.com/"');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&amp;amp;&apos;');
    // Nothing to fetch: no element that loads, and every link a web page's.
    expect(html).not.toMatch(/<(link|script|img|iframe|object|embed|style[^>]*src)\b|url\(|@import/i);
    for (const m of html.matchAll(/\shref="([^"]*)"/g)) expect(m[1]).toMatch(/^(#req-\d+|https?:\/\/)/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });
});
