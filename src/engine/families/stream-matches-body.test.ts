import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readJsonFile } from '../../shared/validation/read-json.js';
import { checkFixture } from '../../provider/fixtures/fixture-store.js';
import { fixturesDir, specsDir } from '../../shared/project-root.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { specHost } from '../../shared/provider-specs/provider-spec.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { FamilyId } from '../../shared/route-table/route-table.js';
import { formatSse } from '../../shared/sse/parse-sse.js';
import { familyFor, implementedFamilies } from './registry.js';
import { feedSplit } from './split-stream.js';

/**
 * The "done when": streaming and unstreamed give identical carriers for every family's
 * fixtures. Every exchange stored with both a body and a stream, for every family that reads
 * streams, read both ways through the route its provider resolves to (the native key included),
 * and the stream again under arbitrary byte splits.
 */
const table = loadRouteTable();
const specs = new Map(loadProviderSpecs(join(specsDir(), 'providers')).map((s) => [s.id, s]));
const files = readdirSync(fixturesDir(), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.json'))
  .map((e) => join(e.parentPath, e.name))
  .sort();

const cases = files.flatMap((file) => {
  const fixture = checkFixture(readJsonFile(file), file);
  const family = fixture.family as FamilyId;
  if (!implementedFamilies().includes(family) || !familyFor(family).streamCarriers) return [];
  const spec = specs.get(fixture.provider);
  if (!spec) return [];
  const policy = resolveRoute(table, {
    provider: spec.target.provider,
    host: specHost(spec),
    model: spec.target.model,
  });
  return fixture.exchanges.flatMap((exchange, i) =>
    exchange.response.status < 300 && exchange.response.body !== undefined && exchange.response.stream
      ? [
          {
            name: `${relative(fixturesDir(), file)} exchange ${i}`,
            family,
            policy,
            body: exchange.response.body,
            events: exchange.response.stream.events,
          },
        ]
      : [],
  );
});

describe('stream == unstreamed for every stored exchange', () => {
  it('has exchanges to compare for every family that reads streams', () => {
    const covered = new Set(cases.map((c) => c.family));
    const streaming = implementedFamilies().filter((f) => familyFor(f).streamCarriers);
    expect(streaming.filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const family = familyFor(c.family);
    const unstreamed = family.fromResponse(c.body, c.policy);
    const text = formatSse(c.events);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 6 }), (cuts) => {
        expect(feedSplit(family.streamCarriers!(c.policy), text, cuts).end()).toEqual(unstreamed);
      }),
      { numRuns: 15 },
    );
  });
});
