import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../shared/project-root.js';
import { generateReport } from './generate-report.js';
import { builtInEngine } from '../engine-adapters/built-in-engine.js';
import { REPORT_FILES, writeReport } from './write-report.js';

/**
 * The committed reports/ sample must be what the code and specs produce now. The writers carry no
 * timing and sort everything, so the comparison is byte for byte. When this fails: `npm start`.
 */
describe('committed reports/ sample', () => {
  const committed = join(projectRoot(), 'reports');
  const fresh = mkdtempSync(join(tmpdir(), 'rr-sample-'));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('regenerates byte for byte (run `npm start` to refresh it)', async () => {
    // The HTML's frameworks section comes from the frameworks.json in the report's folder (npm run frameworks).
    // So does its CompatCanary section, from compatcanary.json (npm run compatcanary).
    for (const name of ['frameworks.json', 'compatcanary.json']) {
      const file = join(committed, name);
      if (existsSync(file)) copyFileSync(file, join(fresh, name));
    }
    writeReport(await generateReport({ engine: builtInEngine }), fresh, { readFrom: committed });
    for (const name of REPORT_FILES) {
      const file = join(committed, name);
      expect(existsSync(file), `reports/${name} is missing: run npm start`).toBe(true);
      const want = readFileSync(join(fresh, name), 'utf8');
      const have = readFileSync(file, 'utf8');
      if (have !== want) {
        const a = have.split('\n');
        const b = want.split('\n');
        const line = a.findIndex((l, i) => l !== b[i]);
        expect.fail(
          `reports/${name} is stale from line ${line + 1} (committed: ${JSON.stringify(a[line]?.slice(0, 160))}, now: ${JSON.stringify(b[line]?.slice(0, 160))}); run npm start and commit reports/`,
        );
      }
    }
  });
});
