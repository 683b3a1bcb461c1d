import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Finding } from '../../../shared/findings/finding.js';
import { renderRunHtml, RUN_REPORT_HTML } from './render-run-html.js';
import { runReport } from './run-report.js';
import { deepseekBody, deepseekEntry, entry, specs } from './run-report.test-helper.js';

/**
 * run-report.html in a real browser (Debian's chromium through playwright-core, off the network, from file://) at a
 * phone's width and a desktop's: no sideways scrolling, the first failure line in view on opening, and the carriers
 * wanted beside (wide) or above (narrow) those sent. The run holds long unbroken values, the kind that push a page
 * wider than its screen: an encrypted blob, a long path.
 */
const CHROMIUM = process.env.REASONING_REPLAY_CHROMIUM ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
if (!found)
  console.warn(
    `run-report.html browser test SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set REASONING_REPLAY_CHROMIUM)`,
  );
const title = found
  ? 'run-report.html in headless Chromium'
  : `run-report.html in headless Chromium (SKIPPED: ${CHROMIUM} not found; apt-get install -y chromium)`;

function sampleFile(dir: string): string {
  const replayed = deepseekBody({ reasoning: true });
  (replayed.messages as Array<Record<string, unknown>>)[1]!.reasoning_content = 'Z'.repeat(400);
  const claude: Finding = {
    rule: 'signatures-verbatim',
    rejection: 'invalid-signature',
    params: { index: 1, block: 0, path: 'messages.1.content.0' },
    detail: 'assistant message 1 block 0: the thinking signature is not the one issued',
  };
  const claudeBody = {
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: `Eq${'A'.repeat(600)}` },
          { type: 'tool_use', id: 't1', name: 'search_notes', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    ],
  };
  const entries = [
    deepseekEntry(1, replayed),
    deepseekEntry(2, deepseekBody({ reasoning: false })),
    entry(3, 'anthropic', 400, [claude], claudeBody, { path: `/anthropic/v1/messages/${'x'.repeat(200)}` }),
    deepseekEntry(4, deepseekBody({ reasoning: true, plainAnswer: true })),
  ];
  const file = join(dir, RUN_REPORT_HTML);
  writeFileSync(file, renderRunHtml(runReport(entries, specs, { headline: '✗ 2 requests broke a provider rule' })));
  return file;
}

describe.skipIf(!found)(title, () => {
  const profile = mkdtempSync(join(tmpdir(), 'rr-chromium-'));
  const dir = mkdtempSync(join(tmpdir(), 'rr-run-report-html-'));
  // Screenshots go to a temp folder (kept, and named on stdout, so a person can look), never into the tree.
  const screenshots = process.env.REASONING_REPLAY_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'rr-screenshots-'));
  let context: BrowserContext;
  let page: Page;
  let file: string;
  const requested: string[] = [];

  const open = async (width: number) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(pathToFileURL(file).href);
  };
  const screenshot = async (name: string) => {
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, name), type: 'png', fullPage: true });
    expect(readFileSync(join(screenshots, name)).subarray(1, 4).toString()).toBe('PNG');
  };
  const noSidewaysScroll = () =>
    page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

  beforeAll(async () => {
    file = sampleFile(dir);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r) => requested.push(r.url()));
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
    console.log(`run-report.html screenshots: ${screenshots}`);
  });

  for (const width of [400, 1400]) {
    it(`at ${width}px: no sideways scrolling, the first failure line in view, nothing loaded but the file`, async () => {
      requested.length = 0;
      await open(width);
      expect(await noSidewaysScroll()).toBe(true);
      const first = page.locator('#failure-lines > li.line.fail').first();
      expect(await first.getAttribute('data-provider')).toBe('anthropic');
      expect(await first.isVisible()).toBe(true);
      const box = (await first.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(box.y + box.height).toBeLessThanOrEqual(800);
      expect(requested.filter((u) => !u.startsWith('file://'))).toEqual([]);
      await screenshot(`run-report-${width}.png`);
    });
  }

  it('wanted beside sent at 1400px, wanted above sent at 400px', async () => {
    const columns = async () => {
      const turn = page.locator('#req-3 .turn').first();
      const wanted = (await turn.locator('.col.wanted').boundingBox())!;
      const sent = (await turn.locator('.col.sent').boundingBox())!;
      return { wanted, sent };
    };
    await open(1400);
    const wide = await columns();
    expect(wide.sent.x).toBeGreaterThan(wide.wanted.x + wide.wanted.width - 1);
    expect(Math.abs(wide.sent.y - wide.wanted.y)).toBeLessThan(1);
    await open(400);
    const narrow = await columns();
    expect(narrow.sent.y).toBeGreaterThan(narrow.wanted.y + narrow.wanted.height - 1);
    expect(narrow.sent.x + narrow.sent.width).toBeLessThanOrEqual(400);
  });
});
