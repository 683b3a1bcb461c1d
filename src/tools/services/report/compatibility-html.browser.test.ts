import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../../../shared/project-root.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import type { CompatibilityReport } from './compatibility-report.js';
import { sampleRun } from './sample-run.test-helper.js';
import { STATUS_SYMBOL } from './status-symbols.js';
import { writeReport } from './write-report.js';

/**
 * compatibility.html in a real browser: Debian's chromium driven by playwright-core, kept off the
 * network, reading the file from file:// as a person would, at a phone's width (400px) and a
 * desktop's (1400px). Two reports: the committed sample, and a failing one built from a hand-made
 * run, because the sample is green and a reader's real question is "why did it fail".
 */
const CHROMIUM = process.env.REASONING_REPLAY_CHROMIUM ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
if (!found)
  console.warn(
    `compatibility.html browser test SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set REASONING_REPLAY_CHROMIUM)`,
  );

const reports = join(projectRoot(), 'reports');
const title = found
  ? 'compatibility.html in headless Chromium'
  : `compatibility.html in headless Chromium (SKIPPED: ${CHROMIUM} not found; apt-get install -y chromium)`;

/** A failing run whose provider-accepts detail holds three attempts, each with the provider's raw body. */
function failingReport(dir: string): { report: CompatibilityReport; file: string } {
  const run = sampleRun();
  const deepseek = run.cells[0]!;
  deepseek.checks.push({
    behaviour: 'strict-schema',
    status: 'fail',
    detail: [
      'call 1 attempt 1: DeepSeek answered 400: assistant message 3 (tool call) has no reasoning_content — {"error":{"message":"The `reasoning_content` in the thinking mode must be passed back to the API.","type":"invalid_request_error"}}',
      'call 1 attempt 2: DeepSeek answered 400: assistant message 3 (tool call) has no reasoning_content — {"error":{"message":"The `reasoning_content` in the thinking mode must be passed back to the API.","type":"invalid_request_error"}}',
      'call 2 attempt 1: DeepSeek answered 400: assistant message 5 (tool call) has no reasoning_content — {"error":{"message":"The `reasoning_content` in the thinking mode must be passed back to the API.","type":"invalid_request_error"}}',
    ].join('\n'),
  });
  const report = buildCompatibilityReport(run, {
    routeOrder: ['mistral', 'deepseek', 'openrouter'],
    root: projectRoot(),
  });
  writeReport(report, dir, { readFrom: reports });
  return { report, file: join(dir, 'compatibility.html') };
}

describe.skipIf(!found)(title, () => {
  const profile = mkdtempSync(join(tmpdir(), 'rr-chromium-'));
  const failingDir = mkdtempSync(join(tmpdir(), 'rr-failing-report-'));
  let context: BrowserContext;
  let page: Page;
  const requested: string[] = [];
  const sample = JSON.parse(readFileSync(join(reports, 'compatibility.json'), 'utf8')) as CompatibilityReport;
  const failing = failingReport(failingDir);
  const open = async (file: string, width: number) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(pathToFileURL(file).href);
  };
  const sampleFile = join(reports, 'compatibility.html');
  // The suite must not rewrite tracked files: screenshots go to a temp folder unless
  // `npm run screenshots` asks for the committed ones to be refreshed.
  const screenshotDir = process.env.REASONING_REPLAY_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'rr-screenshots-'));
  const screenshot = async (name: string) => {
    const dir = screenshotDir;
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `${name}.${process.pid}.tmp`);
    await page.screenshot({ path: temp, type: 'png', fullPage: false });
    renameSync(temp, join(dir, name));
    expect(readFileSync(join(dir, name)).subarray(1, 4).toString()).toBe('PNG');
  };
  /** True when the page needs no sideways scrolling at this width. */
  const fitsWidth = () => page.evaluate(`document.documentElement.scrollWidth <= window.innerWidth`);

  beforeAll(async () => {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r) => requested.push(r.url()));
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(failingDir, { recursive: true, force: true });
  });

  it('is self-contained: it loads nothing but itself', async () => {
    requested.length = 0;
    await open(sampleFile, 1400);
    expect(requested.filter((u) => !u.startsWith('file://'))).toEqual([]);
    expect(requested).toHaveLength(1);
  });

  describe('at 1400px (desktop)', () => {
    it('shows the whole matrix inside the page, a verdict column, and the counts of compatibility.json', async () => {
      await open(sampleFile, 1400);
      expect(await fitsWidth()).toBe(true);
      const table = await page.locator('#matrix').boundingBox();
      const wrap = await page.locator('.wrap').boundingBox();
      expect(table!.x + table!.width).toBeLessThanOrEqual(wrap!.x + wrap!.width + 0.5);
      expect(await page.locator('#cards').isVisible()).toBe(false);
      const verdicts = await page
        .locator('#matrix tbody tr[data-route] td.route-verdict')
        .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-verdict')));
      expect(verdicts).toEqual(sample.routes.map((r) => r.status));
      for (const s of ['pass', 'warn', 'fail', 'na'] as const) {
        expect(await page.locator(`td.cell.${s}`).count(), s).toBe(sample.summary.cells[s]);
      }
      expect(await page.locator('[data-count="cells"]').innerText()).toBe(String(sample.summary.cells.total));
      expect(await page.locator('[data-count="runs"]').innerText()).toBe(String(sample.summary.runs.total));
      await screenshot('compatibility-1400.png');
    });

    it('says in a cell’s hover text which check decided it and why, in one line', async () => {
      await open(failing.file, 1400);
      const cell = page.locator('tr[data-route="deepseek"] td.cell.fail[data-behaviour="strict-schema"]');
      const hover = (await cell.getAttribute('title'))!;
      expect(hover).not.toMatch(/\n/);
      expect(hover).toMatch(
        /^deepseek × strict-schema: fail: tool-call-without-stored-reasoning on deepseek: call 1 attempt 1: DeepSeek answered 400: .* · provider says: The `reasoning_content` in the thinking mode/,
      );
      expect(hover).toContain('(+2 more)');
    });

    it('shows one line per attempt, each with the provider’s message, the raw body folded away', async () => {
      await open(failing.file, 1400);
      await page.locator('tr[data-route="deepseek"] td.cell.fail[data-behaviour="strict-schema"] a').click();
      const block = page.locator('#d-deepseek-strict-schema');
      await expect.poll(() => block.isVisible()).toBe(true);
      const lines = block.locator('li.fail .why');
      expect(await lines.count()).toBe(3);
      for (const text of await lines.allInnerTexts())
        expect(text.split('\n')[0]).toMatch(
          /^call \d attempt \d: DeepSeek answered 400: .* provider says: The `reasoning_content` in the thinking mode/,
        );
      const raw = block.locator('li.fail .why details pre').first();
      expect(await raw.isVisible()).toBe(false);
      await block.locator('li.fail .why details summary').first().click();
      expect(await raw.isVisible()).toBe(true);
    });
  });

  describe('at 400px (phone)', () => {
    it('shows every route’s verdict without scrolling sideways', async () => {
      await open(sampleFile, 400);
      expect(await fitsWidth()).toBe(true);
      expect(await page.locator('.wrap').isVisible()).toBe(false);
      const cards = page.locator('#cards article[data-route]');
      expect(await cards.count()).toBe(sample.routes.length);
      const verdicts = cards.locator('h3 .verdict');
      for (let i = 0; i < sample.routes.length; i++) {
        const box = (await verdicts.nth(i).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(400);
        expect(await verdicts.nth(i).innerText()).toContain(STATUS_SYMBOL[sample.routes[i]!.status]);
      }
      await screenshot('compatibility-400.png');
    });

    it('"failing routes only" leaves the failing cards, each naming its failing behaviours and why', async () => {
      await open(failing.file, 400);
      await page.check('#failing-only');
      const shown = page.locator('#cards article[data-route]:visible');
      const failingRoutes = failing.report.routes.filter((r) => r.status === 'fail');
      expect(await shown.count()).toBe(failingRoutes.length);
      expect(await fitsWidth()).toBe(true);
      const card = page.locator('#cards article[data-route="deepseek"]');
      const problems = await card.locator('li.fail').allInnerTexts();
      expect(problems.some((p) => /^✗ strict-schema: deepseek, call 1 attempt 1: DeepSeek answered 400/.test(p))).toBe(
        true,
      );
      const box = (await card.locator('h3 .verdict').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(400);
      await screenshot('compatibility-400-failing.png');
    });
  });
});
