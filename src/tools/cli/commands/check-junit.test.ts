import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { runCliInProcess as runCli } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-check-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('check --junit (without --base)', () => {
  it('writes well-formed JUnit for the whole matrix, with the failing route x behaviour cells as failures', async () => {
    const table = JSON.parse(readFileSync(defaultRoutesFile(), 'utf8')) as RouteTable;
    table.routes.find((r) => r.id === 'mistral')!.fields.push('reasoning_details');
    const routes = join(dir, 'routes.json');
    writeFileSync(routes, JSON.stringify(table, null, 2));
    const junit = join(dir, 'nested', 'junit.xml');
    const result = await runCli(['check', '--routes', routes, '--quiet', '--junit', junit]);
    expect(result.code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = [doc.testsuites.testsuite].flat() as Array<{
      name: string;
      testcase: Array<{ name: string; failure?: { '#text'?: string } }>;
    }>;
    const mistral = suites.find((s) => s.name === 'route mistral')!;
    const failing = mistral.testcase.filter((t) => t.failure);
    expect(failing.map((t) => t.name)).toContain('strict-schema');
    expect(suites.filter((s) => s.name.startsWith('route ')).length).toBeGreaterThan(10);
  });
});

describe('an option given without its value', () => {
  it.each([[['check', '--junit']], [['check', '--junit', '--quiet']], [['report', '--out']]])(
    '%j is bad input naming the option, not silently ignored',
    async (args) => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${args[1]}: needs a value`));
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
