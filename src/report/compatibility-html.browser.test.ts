import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../project-root.js';
import type { CompatibilityReport } from './compatibility-report.js';

/**
 * The committed compatibility.html in a real browser: Debian's chromium driven by playwright-core,
 * kept off the network, reading the file from file:// as a person would. The counts it shows are
 * compared with compatibility.json (the staleness test keeps both current).
 */
const CHROMIUM = process.env.REASONING_REPLAY_CHROMIUM ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
if (!found) console.warn(`compatibility.html browser test SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set REASONING_REPLAY_CHROMIUM)`);

const reports = join(projectRoot(), 'reports');
const title = found ? 'compatibility.html in headless Chromium' : `compatibility.html in headless Chromium (SKIPPED: ${CHROMIUM} not found; apt-get install -y chromium)`;

describe.skipIf(!found)(title, () => {
  const profile = mkdtempSync(join(tmpdir(), 'rr-chromium-'));
  let context: BrowserContext;
  let page: Page;
  const requested: string[] = [];
  const report = JSON.parse(readFileSync(join(reports, 'compatibility.json'), 'utf8')) as CompatibilityReport;

  beforeAll(async () => {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1600, height: 1000 },
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
    await page.goto(pathToFileURL(join(reports, 'compatibility.html')).href);
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  const rows = () => page.locator('#matrix tbody tr[data-route]');
  const visibleCount = (selector: string) => page.locator(`#matrix tbody tr[data-route]:visible ${selector}`).count();

  it('is self-contained: it loads nothing but itself', () => {
    expect(requested.filter((u) => !u.startsWith('file://'))).toEqual([]);
    expect(requested).toHaveLength(1);
  });

  it('renders one row per route and the summary counts of compatibility.json', async () => {
    expect(await rows().count()).toBe(report.routes.length);
    expect(await page.locator('td.cell.pass').count()).toBe(report.summary.matrix.pass);
    expect(await page.locator('td.cell.fail').count()).toBe(report.summary.matrix.fail);
    expect(await page.locator('td.cell.na').count()).toBe(report.summary.matrix.na);
    for (const [key, want] of [
      ['routes', report.summary.routes],
      ['providers', report.summary.providers.length],
      ['scenarios', report.summary.scenarios.length],
      ['matrix-pass', report.summary.matrix.pass],
      ['matrix-fail', report.summary.matrix.fail],
      ['matrix-na', report.summary.matrix.na],
      ['scenario-cells', report.summary.scenarioCells.total],
    ] as const) {
      expect(await page.locator(`[data-count="${key}"]`).innerText(), key).toBe(String(want));
    }
  });

  it('shows each cell’s state by colour class and symbol, row by row as in the JSON', async () => {
    const symbol = { pass: '✓', warn: '!', fail: '✗', 'n/a': '–' } as const;
    const shown = await page.evaluate(
      `Array.from(document.querySelectorAll('#matrix tbody tr[data-route]')).map((tr) => Array.from(tr.querySelectorAll('td.cell')).map((td) => td.className.replace('cell ', '') + ':' + td.textContent))`,
    );
    expect(shown).toEqual(report.routes.map((r) => r.matrix.map((m) => `${m.status === 'n/a' ? 'na' : m.status}:${symbol[m.status]}`)));
    const colours = await page.evaluate(
      `['pass','fail','na'].map((s) => { const td = document.querySelector('td.cell.' + s); return td ? getComputedStyle(td).backgroundColor : null; })`,
    );
    const present = (colours as (string | null)[]).filter((c): c is string => c !== null);
    expect(new Set(present).size).toBe(present.length);
  });

  it('keeps the header row and the route column sticky', async () => {
    expect(await page.evaluate(`getComputedStyle(document.querySelector('#matrix thead th')).position`)).toBe('sticky');
    expect(await page.evaluate(`getComputedStyle(document.querySelector('#matrix tbody th.route')).position`)).toBe('sticky');
  });

  it('filters by provider, and the shown counts follow', async () => {
    // Any provider will do; the filter must keep exactly the routes its cells resolved to.
    const provider = report.summary.providers.find((p) => p === 'deepseek') ?? report.summary.providers[0]!;
    const routes = report.routes.filter((r) => r.providers.includes(provider));
    await page.selectOption('#provider-filter', provider);
    expect(await rows().filter({ visible: true }).count()).toBe(routes.length);
    expect(await page.locator('#shown-routes').innerText()).toBe(String(routes.length));
    const count = (s: string) => routes.reduce((n, r) => n + r.matrix.filter((m) => m.status === s).length, 0);
    expect(await visibleCount('td.cell.pass')).toBe(count('pass'));
    expect(await page.locator('#shown-pass').innerText()).toBe(String(count('pass')));
    expect(await page.locator('#shown-fail').innerText()).toBe(String(count('fail')));
    expect(await page.locator('#shown-na').innerText()).toBe(String(count('n/a')));
    const visibleRoutes = await rows().filter({ visible: true }).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-route')));
    expect(visibleRoutes).toEqual(routes.map((r) => r.route));

    await page.selectOption('#provider-filter', '');
    await page.fill('#text-filter', 'strict');
    const strict = report.routes.filter((r) => r.tiers.includes('strict'));
    expect(await rows().filter({ visible: true }).count()).toBe(strict.length);
    await page.fill('#text-filter', '');
    expect(await rows().filter({ visible: true }).count()).toBe(report.routes.length);

    await page.check('#failing-only');
    const failing = report.routes.filter((r) => r.matrix.some((m) => m.status === 'fail'));
    expect(await rows().filter({ visible: true }).count()).toBe(failing.length);
    expect(await page.locator('#shown-fail').innerText()).toBe(String(report.summary.matrix.fail));
    await page.uncheck('#failing-only');
    expect(await rows().filter({ visible: true }).count()).toBe(report.routes.length);
  });

  it('opens the scenario and fixture detail behind a cell', async () => {
    const status = report.summary.matrix.fail > 0 ? 'fail' : 'pass';
    const link = page.locator(`td.cell.${status} a`).first();
    const href = (await link.getAttribute('href'))!;
    await link.click();
    const target = page.locator(href);
    await expect.poll(() => target.isVisible()).toBe(true);
    const text = await target.innerText();
    const cell = report.routes.flatMap((r) => r.matrix.map((m) => ({ r, m }))).find(({ r, m }) => `#d-${r.route}-${m.behaviour}`.replace(/[^#A-Za-z0-9_-]/g, '_') === href)!;
    const decided = cell.m.decisions.find((d) => d.status === status)!;
    expect(text).toContain(decided.scenario);
    if (decided.fixture) expect(await target.locator(`a[href$="${decided.fixture.path}"]`).count()).toBeGreaterThan(0);
    // The decision links to its scenario run, which lists the calls once.
    const run = target.locator('a', { hasText: 'calls' }).first();
    await run.click();
    const runTarget = page.locator((await run.getAttribute('href'))!);
    await expect.poll(() => runTarget.isVisible()).toBe(true);
    expect(await runTarget.innerText()).toContain(decided.scenario);
    expect(await target.locator(`a[href$="specs/scenarios/${decided.scenario}.json"]`).count()).toBeGreaterThan(0);
    await page.evaluate(`location.hash = ''; window.scrollTo(0, 0)`);
  });

  it('saves a screenshot to reports/screenshots/compatibility.png', async () => {
    const dir = join(reports, 'screenshots');
    mkdirSync(dir, { recursive: true });
    // As a reader first sees it: fresh load, no filter, nothing scrolled.
    await page.goto(pathToFileURL(join(reports, 'compatibility.html')).href);
    const temp = join(dir, `compatibility.png.${process.pid}.tmp`);
    await page.screenshot({ path: temp, type: 'png' });
    renameSync(temp, join(dir, 'compatibility.png'));
    expect(readFileSync(join(dir, 'compatibility.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});
