import { describe, expect, it } from 'vitest';
import { FAMILY_IDS } from '../../../shared/wire/families.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadLiveLimits, limitsFor } from './live-limits.js';
import { loadPriceTable, priceFor } from './price-table.js';

const specs = loadProviderSpecs();
const ids = new Set(specs.map((s) => s.id));

describe('specs/prices.json and specs/live-limits.json', () => {
  it('every price names known providers, one price per provider and model, and its pricing page', () => {
    const table = loadPriceTable();
    const seen = new Set<string>();
    for (const p of table.prices) {
      for (const provider of p.providers) {
        expect(ids, `prices.json names no provider spec "${provider}"`).toContain(provider);
        for (const model of p.models ?? []) {
          const key = `${provider} ${model}`;
          expect(seen.has(key), `${key} is priced twice`).toBe(false);
          seen.add(key);
          expect(priceFor(table, provider, model)).toBe(p);
        }
      }
      expect(p.source).toMatch(/^https:\/\//);
    }
  });

  it('every wire family has an output cap, and every provider entry names a known provider', () => {
    const limits = loadLiveLimits();
    for (const family of FAMILY_IDS) expect(limits.families[family], `no cap for ${family}`).toBeDefined();
    for (const id of Object.keys(limits.providers ?? {})) expect(ids).toContain(id);
    for (const spec of specs) expect(limitsFor(limits, spec).cap ?? limitsFor(limits, spec).unavailable).toBeDefined();
  });
});
