import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../src/shared/provider-specs/load-provider-specs.js';
import { loadFrameworkMatrix } from '../../src/tools/services/framework-results/framework-matrix.js';
import type { FrameworkRow } from '../../src/tools/services/framework-results/framework-row.js';
import { runFrameworks } from '../../src/tools/commands/frameworks/run-frameworks.js';

/**
 * The fast subset of `npm run frameworks` (rows and pairs marked `fast`: one framework per wire family,
 * not streamed), each a real framework process run through `run`'s runAgent. A regression in `run`, in
 * serve or in a mock shows here: a conforming framework that stops passing, or a bug version that is no
 * longer refused with the rule its public report describes.
 */
const matrix = loadFrameworkMatrix(loadProviderSpecs().map((s) => s.id));
let rows: FrameworkRow[] = [];

describe('agent frameworks through run, the fast subset', () => {
  it('runs', async () => {
    rows = await runFrameworks(matrix, { fast: true, timeoutMs: 60_000 });
    expect(rows.length).toBeGreaterThanOrEqual(5);
  }, 180_000);

  it('each conforming framework row passes: every request accepted, reasoning replayed', () => {
    const plain = rows.filter((r) => !r.pair);
    expect(plain.length).toBeGreaterThan(0);
    for (const r of plain) expect(r.verdict, `${r.key}: ${r.reason}`).toBe('pass');
  });

  it('each bug version fails naming the rule of its report, at the request that dropped the carrier; each fixed version passes', () => {
    const paired = rows.filter((r) => r.pair);
    expect(paired.filter((r) => r.pair!.side === 'bug').length).toBeGreaterThan(0);
    for (const r of paired) {
      expect(r.pair!.met, `${r.key}: expected ${r.pair!.expected}, got ${r.verdict} ${r.rule ?? ''}: ${r.reason}`).toBe(
        true,
      );
      if (r.pair!.side === 'bug') expect(r.evidence?.status, r.key).toBeGreaterThanOrEqual(400);
    }
  });
});
