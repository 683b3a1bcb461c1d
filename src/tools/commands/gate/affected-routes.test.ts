import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { affectedRoutes, engineChanges } from './affected-routes.js';
import { describeRouteTableDiff } from './describe-route-table-diff.js';

const base = loadRouteTable();
const specs = loadProviderSpecs();
const affected = (edit: (t: RouteTable) => void) => {
  const head = structuredClone(base);
  edit(head);
  return [...affectedRoutes(base, head, describeRouteTableDiff(base, head), specs)].sort();
};
const route = (t: RouteTable, id: string) => t.routes.find((r) => r.id === id)!;

describe('affectedRoutes', () => {
  it('is empty for an unchanged table and for documentation-only edits', () => {
    expect(affected(() => {})).toEqual([]);
    expect(affected((t) => (route(t, 'deepseek').notes = 'reworded'))).toEqual([]);
  });

  it('names the edited route', () => {
    expect(affected((t) => (route(t, 'deepseek').tier = 'standard'))).toEqual(['deepseek']);
  });

  it('follows targets that move: a route that stops matching sends its provider to the route that catches it', () => {
    const moved = affected((t) => {
      const r = route(t, 'fireworks');
      r.match = { providers: ['fireworks-old'] };
    });
    expect(moved).toContain('fireworks');
    expect(moved).toContain('default');
  });
});

describe('engineChanges', () => {
  it('counts the engine, provider rules, scenarios, schemas, fixtures and lockfile, not docs or reports', () => {
    expect(
      engineChanges([
        'README.md',
        'docs/ci.md',
        'reports/compatibility.md',
        'specs/routes.json',
        'src/engine/replay/x.ts',
        'specs/providers/a.json',
        'fixtures/providers/a/b.json',
        'package-lock.json',
        'specs/schema/x.json',
        'specs/scenarios/s.json',
      ]),
    ).toEqual([
      'src/engine/replay/x.ts',
      'specs/providers/a.json',
      'fixtures/providers/a/b.json',
      'package-lock.json',
      'specs/schema/x.json',
      'specs/scenarios/s.json',
    ]);
  });
});
