import { describe, expect, it } from 'vitest';
import { buildFrameworksReport } from '../framework-results/frameworks-report.js';
import type { FrameworkRow } from '../framework-results/framework-row.js';
import { renderFrameworksSection } from './frameworks-section.js';

const row: FrameworkRow = {
  key: 'langchain-js × deepseek × stream',
  framework: 'langchain-js',
  frameworkName: 'LangChain.js',
  frameworkVersion: '1.4.0',
  provider: 'deepseek',
  package: '@langchain/deepseek',
  packageVersion: '1.1.6',
  stream: true,
  verdict: 'pass',
  reason: 'ok',
  requests: 4,
  faults: [
    {
      fault: 'server-error-500-mid-loop',
      outcome: 'poisoned',
      damage: { request: '#4 POST /deepseek/chat/completions', what: 'same-history-resubmitted', detail: 'd' },
      reason: 'resubmitted <the> same history',
      requests: 4,
    },
    { fault: 'rate-limited-429-mid-loop', outcome: 'survives', reason: 'finished', requests: 5 },
  ],
};

describe('the frameworks section’s faults column (compatibility.html)', () => {
  it('a chip per fault: its outcome, the request that showed the damage, the reason escaped in its title', () => {
    const html = renderFrameworksSection(buildFrameworksReport({ frameworks: [], pairs: [] }, [row]));
    expect(html).toContain(
      '<span class="fw-chip fail-tone" title="resubmitted &lt;the&gt; same history">server-error-500-mid-loop ✗ poisoned · #4 POST /deepseek/chat/completions</span>',
    );
    expect(html).toContain('rate-limited-429-mid-loop ✓ survives</span>');
    const without = renderFrameworksSection(
      buildFrameworksReport({ frameworks: [], pairs: [] }, [{ ...row, faults: [] }]),
    );
    expect(without).not.toContain('under faults:');
  });
});
