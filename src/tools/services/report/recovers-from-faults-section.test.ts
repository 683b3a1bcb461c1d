import { describe, expect, it } from 'vitest';
import type { EngineFaultResult } from '../engine-faults/run-engine-faults.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { sampleRun } from './sample-run.test-helper.js';
import { renderJson } from './write-report.js';

const results: EngineFaultResult[] = [
  {
    route: 'anthropic',
    provider: 'anthropic',
    fault: 'messages-cut-mid-signature',
    status: 'pass',
    detail: 'recovered',
    requests: 5,
  },
  {
    route: 'anthropic',
    provider: 'anthropic',
    fault: 'gateway-upstream-switch',
    status: 'fail',
    detail: 'after fault gateway-upstream-switch (request #1), no later request was answered after request #2',
    requests: 2,
  },
  {
    route: 'default',
    provider: 'openai',
    fault: 'server-error-500-mid-loop',
    status: 'not-injected',
    detail: 'x',
    requests: 3,
  },
];

describe('the compatibility report’s recovers-from-faults section (report --faults)', () => {
  const report = { ...buildCompatibilityReport(sampleRun(), { root: '/project' }), recoversFromFaults: results };

  it('is in compatibility.json, checked against its schema', () => {
    expect(JSON.parse(renderJson(report)).recoversFromFaults).toEqual(results);
    const bad = { ...report, recoversFromFaults: [{ ...results[0]!, status: 'recovered' as never }] };
    expect(() => renderJson(bad)).toThrow(/recoversFromFaults/);
  });

  it('the markdown counts them and names, per route, the fault not recovered from and why', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('### Recovers from faults');
    expect(md).toMatch(/1 recovered, ✗ 1 not, 1 never injected/);
    expect(md).toMatch(
      /\| anthropic \(anthropic\) \| 1 \| ✗ gateway-upstream-switch: after fault gateway-upstream-switch/,
    );
    expect(renderMarkdown(buildCompatibilityReport(sampleRun(), { root: '/project' }))).not.toContain(
      'Recovers from faults',
    );
  });

  it('the HTML lists each route and fault, failures first', () => {
    const html = renderHtml(report, { linkBase: '..' });
    const section = html.slice(html.indexOf('id="recovers-from-faults"'));
    expect(section.indexOf('gateway-upstream-switch')).toBeLessThan(section.indexOf('messages-cut-mid-signature'));
    expect(section).toContain('<code>default</code> (openai)');
  });
});
