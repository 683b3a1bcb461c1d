import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';

/** `report` keeps the README's exit-code contract: it writes the report, and a failing cell exits 1. */
describe('reasoning-replay report exit code', () => {
  it('writes every file and exits 1 when a cell fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rr-report-exit-'));
    const table = JSON.parse(readFileSync(defaultRoutesFile(), 'utf8')) as RouteTable;
    table.routes.find((r) => r.id === 'mistral')!.fields.push('reasoning_details');
    const routes = join(dir, 'routes.json');
    writeFileSync(routes, JSON.stringify(table));
    const out = join(dir, 'out');
    const r = runCli(['report', '--routes', routes, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ \d+ routes x \d+ behaviours/m);
    for (const f of ['compatibility.json', 'compatibility.md', 'compatibility.html', 'junit.xml'])
      expect(existsSync(join(out, f)), f).toBe(true);
  });
});
