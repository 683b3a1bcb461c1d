import { describe, expect, it } from 'vitest';
import { compatCanarySection } from '../report/render-html.js';
import { compatCanaryFigures, type ProbeResult } from './compatcanary-figures.js';

/** CompatCanary's results per mock, counted and shown dated; the scan itself is compatcanary.test.ts. */
const result = (id: string, status: ProbeResult['status']): ProbeResult => ({ id, status, summary: '' });

describe('CompatCanary figures', () => {
  const figures = compatCanaryFigures(
    [
      { provider: 'groq', results: [result('chat.basic', 'pass'), result('models.list', 'warn')] },
      { provider: 'deepseek', results: [result('chat.basic', 'pass'), result('chat.structured_output', 'fail')] },
    ],
    '2026-12-07',
    '0.2.2',
  );

  it('count pass, warn and fail per mock and name the probes that did not pass', () => {
    expect(figures).toEqual({
      version: 1,
      date: '2026-12-07',
      package: 'compatcanary@0.2.2',
      mocks: [
        { provider: 'groq', pass: 1, warn: 1, fail: 0, notPassing: ['models.list warn'] },
        { provider: 'deepseek', pass: 1, warn: 0, fail: 1, notPassing: ['chat.structured_output fail'] },
      ],
    });
  });

  it('are shown in the HTML with their date, one row per mock', () => {
    const html = compatCanarySection(figures);
    expect(html).toContain('compatcanary@0.2.2, run on 2026-12-07');
    expect(html).toMatch(/<tr class="warn"><td><code>groq<\/code><\/td><td>1<\/td><td>1<\/td><td>0<\/td>/);
    expect(html).toMatch(/<tr class="fail"><td><code>deepseek<\/code><\/td><td>1<\/td><td>0<\/td><td>1<\/td>/);
  });
});
