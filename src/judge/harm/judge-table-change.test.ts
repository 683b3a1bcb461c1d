import { describe, expect, it } from 'vitest';
import { loadProviderSpecs, defaultProvidersDir } from '../../shared/provider-specs/load-provider-specs.js';
import { defaultRoutesFile, loadRouteTable } from '../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';
import { judgeTables } from './judge-table-change.js';

const table = loadRouteTable(defaultRoutesFile());
const specs = loadProviderSpecs(defaultProvidersDir());
const edit = (id: string, change: (r: RouteTable['routes'][number]) => void): RouteTable => {
  const head = structuredClone(table);
  change(head.routes.find((r) => r.id === id)!);
  return head;
};

// Issue 27, as a new user saw it: both edits printed "no spec resolves through what changed".
describe('the harm of a table change says who resolves through what changed', () => {
  it('a must-echo row that stops listing reasoning_content is harmful: only the pad replaces the reasoning', () => {
    const mustEcho = table.routes.find((r) => r.tier === 'must-echo' && r.fields.includes('reasoning_content'))!;
    const v = judgeTables(
      table,
      edit(mustEcho.id, (r) => (r.fields = r.fields.filter((f) => f !== 'reasoning_content'))),
      specs,
    );
    expect(v.verdict).toBe('harmful');
    expect(v.findings.some((f) => f.behaviour === 'must-echo' && /only the " " pad/.test(f.detail))).toBe(true);
  });

  it('a strict row that lists a field names its targets and why nothing travels, never "no spec resolves"', () => {
    const strict = table.routes.find((r) => r.tier === 'strict' && r.fields.length === 0)!;
    const v = judgeTables(
      table,
      edit(strict.id, (r) => (r.fields = ['reasoning'])),
      specs,
    );
    expect(v.verdict).toBe('harmless');
    expect(v.reasons.join('\n')).not.toMatch(/no spec resolves/);
    expect(v.reasons.join('\n')).toMatch(
      new RegExp(
        `resolves through route ${strict.id}, which changed, and receives the same .*is strict, so the fields it lists \\(reasoning\\) never travel`,
      ),
    );
  });
});
