import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../src/shared/provider-specs/load-provider-specs.js';
import { loadFrameworkMatrix } from '../../src/tools/services/framework-results/framework-matrix.js';
import type { FrameworkRow } from '../../src/tools/services/framework-results/framework-row.js';
import { runFrameworks } from '../../src/tools/commands/frameworks/run-frameworks.js';
import { faultApplies, loadFaultCatalogue } from '../../src/shared/faults/fault-catalogue.js';

/**
 * The fast subset of `npm run frameworks` (rows and pairs marked `fast`: one framework per wire family,
 * not streamed), each a real framework process run through `run`'s runAgent. A regression in `run`, in
 * serve or in a mock shows here: a conforming framework that stops passing, or a bug version that is no
 * longer refused with the rule its public report describes. The faults column's fixed subset runs too: the row
 * marked `fastFaults` streamed under each stream-cut fault of its family, and each fast pair that names a fault, both
 * versions streamed under it.
 */
const specs = loadProviderSpecs();
const matrix = loadFrameworkMatrix(specs.map((s) => s.id));
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

  it('each pair judged under a fault, both ways: the bug version poisoned, naming the fault and the request; the fixed one survives it', () => {
    const underFault = matrix.pairs.filter((p) => p.fast && p.fault);
    expect(underFault.length).toBeGreaterThan(0);
    for (const pair of underFault)
      for (const side of ['bug', 'fixed'] as const) {
        const row = rows.find((r) => r.pair?.id === pair.id && r.pair.side === side);
        expect(row, `${pair.id} ${side}: not run`).toBeDefined();
        const cell = row!.faults?.find((c) => c.fault === pair.fault);
        expect(cell, `${row!.key}: no cell for ${pair.fault}`).toBeDefined();
        expect(cell!.injected, row!.key).toMatch(/^#1 POST /);
        if (side === 'bug') {
          expect(cell!.outcome, `${row!.key}: ${cell!.reason}`).toBe('poisoned');
          // The request that carried the damage, after the one the fault changed.
          expect(cell!.damage?.request, row!.key).toMatch(/^#([2-9]|\d{2,}) /);
          expect(cell!.damage?.detail, row!.key).toContain(pair.fault!);
        } else expect(cell!.outcome, `${row!.key}: ${cell!.reason}`).toBe('survives');
      }
  });

  it('the faults column: the fastFaults row has one cell per stream-cut fault of its family, each injected, none poisoned', () => {
    const marked = matrix.frameworks.flatMap((f) =>
      f.providers.filter((p) => p.fastFaults).map((p) => ({ framework: f.id, provider: p.provider })),
    );
    expect(marked.length).toBeGreaterThan(0);
    for (const m of marked) {
      const family = specs.find((s) => s.id === m.provider)!.family;
      const cuts = loadFaultCatalogue()
        .faults.filter((f) => f.inject.kind === 'stream-cut' && faultApplies(f, family, m.provider))
        .map((f) => f.name);
      const row = rows.find((r) => !r.pair && r.framework === m.framework && r.provider === m.provider)!;
      expect(row.faults?.map((c) => c.fault)).toEqual(cuts);
      for (const c of row.faults!) {
        // A cut that stops the agent is survivable (nothing poisoned); one the mock never made, or damage after it, is not.
        expect(['survives', 'gave-up'], `${c.fault}: ${c.outcome}: ${c.reason}`).toContain(c.outcome);
        expect(c.injected, c.fault).toMatch(/^#1 POST \/anthropic\/v1\/messages: cut /);
      }
    }
  });
});
