import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../../../shared/project-root.js';
import type { CompatibilityReport } from './compatibility-report.js';
import { writeReport } from './write-report.js';
import { buildFrameworksReport } from '../framework-results/frameworks-report.js';
import type { FrameworkRow } from '../framework-results/framework-row.js';
import type { FrameworkMatrix } from '../framework-results/framework-matrix.js';

/**
 * The "Agent frameworks" section of compatibility.html in headless Chromium at a phone's width (400px)
 * and a desktop's (1400px): it fits the page, and a reader finds "does LangChain's Gemini provider keep
 * thought signatures at 1.0.1?" by typing "google-genai" into the section's filter. The section is
 * written from a frameworks.json beside the report, as `npm run frameworks` leaves it in reports/.
 */
const CHROMIUM = process.env.REASONING_REPLAY_CHROMIUM ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
if (!found) console.warn(`frameworks section browser test SKIPPED: no Chromium at ${CHROMIUM}`);

const LONG = 'function call lookup_order in content 1 (current turn) has no thought_signature '.repeat(4);
const row = (over: Partial<FrameworkRow>): FrameworkRow => ({
  key: 'k',
  framework: 'langchain-js',
  frameworkName: 'LangChain.js',
  frameworkVersion: '1.4.0',
  provider: 'gemini',
  package: '@langchain/google-genai',
  packageVersion: '2.3.2',
  stream: false,
  verdict: 'pass',
  reason: '4 requests accepted, reasoning replayed',
  requests: 4,
  ...over,
});
const failing = {
  verdict: 'fail' as const,
  rule: 'signatures-verbatim',
  reason: LONG,
  evidence: {
    request: '#2 POST /gemini/v1beta/models/gemini-3-pro-preview-with-a-very-long-model-name:streamGenerateContent',
    status: 400,
    rule: 'signatures-verbatim',
    rejection: 'missing-thought-signature',
    carrier: 'thoughtSignature at message 1',
    detail: LONG,
  },
};
const matrix: FrameworkMatrix = {
  frameworks: [],
  pairs: [
    {
      id: 'langchain-google-genai-thought-signature',
      framework: 'langchain-js',
      provider: 'gemini',
      package: '@langchain/google-genai',
      bug: { version: '1.0.1', alias: 'langchain-google-genai-1.0.1' },
      fixed: { version: '1.0.2', alias: 'langchain-google-genai-1.0.2' },
      rule: 'signatures-verbatim',
      carrier: 'thoughtSignature on functionCall parts',
      report: 'https://github.com/langchain-ai/langchainjs/issues/8299',
      fix: 'https://github.com/langchain-ai/langchainjs/pull/9441',
    },
  ],
};
const pairSide = (side: 'bug' | 'fixed', met: boolean) => ({
  id: 'langchain-google-genai-thought-signature',
  side,
  expected: side === 'bug' ? 'fail naming signatures-verbatim' : 'pass',
  met,
});
const rows: FrameworkRow[] = [
  row({}),
  row({ stream: true }),
  row({ provider: 'anthropic', package: '@langchain/anthropic', packageVersion: '1.5.11' }),
  row({ packageVersion: '1.0.1', ...failing, pair: pairSide('bug', true) }),
  row({ packageVersion: '1.0.1', stream: true, ...failing, pair: pairSide('bug', true) }),
  row({ packageVersion: '1.0.2', pair: pairSide('fixed', true) }),
  row({ packageVersion: '1.0.2', stream: true, pair: pairSide('fixed', true) }),
  ...Array.from({ length: 12 }, (_, i) =>
    row({
      framework: 'ai-sdk-5',
      frameworkName: 'Vercel AI SDK 5',
      frameworkVersion: '5.0.277',
      provider: `provider-${i}`,
      package: '@ai-sdk/openai-compatible',
    }),
  ),
];

describe.skipIf(!found)('the Agent frameworks section of compatibility.html in headless Chromium', () => {
  const profile = mkdtempSync(join(tmpdir(), 'rr-chromium-'));
  const dir = mkdtempSync(join(tmpdir(), 'rr-frameworks-report-'));
  const reports = join(projectRoot(), 'reports');
  let context: BrowserContext;
  let page: Page;
  const file = join(dir, 'compatibility.html');
  const fitsWidth = () => page.evaluate(`document.documentElement.scrollWidth <= window.innerWidth`);
  const open = async (width: number) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(pathToFileURL(file).href);
  };

  beforeAll(async () => {
    const sample = JSON.parse(readFileSync(join(reports, 'compatibility.json'), 'utf8')) as CompatibilityReport;
    writeFileSync(join(dir, 'frameworks.json'), JSON.stringify(buildFrameworksReport(matrix, rows)));
    writeReport(sample, dir, { readFrom: reports });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = context.pages()[0] ?? (await context.newPage());
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  for (const width of [400, 1400]) {
    it(`at ${width}px: fits the page, and the filter finds the Gemini provider's verdict at 1.0.1`, async () => {
      await open(width);
      expect(await fitsWidth()).toBe(true);
      const section = page.locator('#frameworks');
      await section.scrollIntoViewIfNeeded();
      expect(await section.isVisible()).toBe(true);
      const box = await section.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5);
      await page.fill('#fw-filter', 'google-genai');
      const shown = page.locator('#frameworks [data-fw-search]:visible');
      const texts = await shown.allInnerTexts();
      expect(texts).toHaveLength(3);
      const buggy = texts.find((t) => t.includes('@langchain/google-genai@1.0.1'));
      expect(buggy).toMatch(/not streamed ✗ fail · signatures-verbatim/);
      expect(buggy).toMatch(/thoughtSignature at message 1/);
      expect(texts.find((t) => t.includes('@1.0.2'))).toMatch(/streamed ✓ pass/);
      expect(await page.locator('#frameworks').innerText()).toMatch(/1 of 1 judged as reported/);
      // Frameworks with no matching card are hidden, heading included.
      expect(await page.locator('.fw-framework:visible h3').allInnerTexts()).toEqual(['LangChain.js @1.4.0']);
      expect(await fitsWidth()).toBe(true);
    });
  }

  it('a report without frameworks.json has no such section', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'rr-bare-report-'));
    const sample = JSON.parse(readFileSync(join(reports, 'compatibility.json'), 'utf8')) as CompatibilityReport;
    writeReport(sample, bare, { readFrom: reports });
    expect(readFileSync(join(bare, 'compatibility.html'), 'utf8')).not.toContain('id="frameworks"');
    rmSync(bare, { recursive: true, force: true });
  });
});
