import { familyFor, implementedFamilies } from '../../engine/families/registry.js';
import type { CarrierReader } from '../../provider/fixtures/synthesis/synthesize-fixtures.js';
import { policyFor } from '../../shared/route-table/policy-for.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';

/**
 * The engine's reading of a synthesized answer, for the fixture's informational `carriers`: the
 * CLI composes the two sides here so the synthesizer itself imports nothing from the engine. The
 * route's policy files a native record under the route's own key (gemini vs vertex-gemini).
 */
export function engineCarrierReader(table: RouteTable): CarrierReader {
  return (spec, body) =>
    implementedFamilies().includes(spec.family)
      ? (familyFor(spec.family).fromResponse(body, policyFor(table, spec)).carriers as Record<string, unknown>)
      : undefined;
}
