import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../../shared/project-root.js';
import { loadRouteTable } from '../../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../../shared/route-table/resolve-route.js';
import type { FamilyId, RoutePolicy } from '../../../../shared/route-table/route-table.js';
import { sampleTargetForRoute } from '../../../../shared/route-table/sample-target.js';
import { isPlainObject } from '../../../../shared/objects/deep-merge.js';
import { InputError } from '../../../../shared/errors/input-error.js';
import { InvariantError } from '../../../../shared/errors/invariant-error.js';

/**
 * One answer from `../shared/real-traffic/cases/` (real provider traffic recorded by other public
 * projects; see that folder's README). The corpus sits beside the repo and is never copied in.
 */
export interface RealCase {
  id: string;
  family: FamilyId;
  kind: 'body' | 'stream';
  body?: unknown;
  sse?: string;
  expect: Record<string, unknown>;
  /** Copilot's Responses surface renames every item on every event: ids are compared by position. */
  itemIdsRotate?: boolean;
  file: string;
}

/** `../shared/real-traffic/cases` relative to the repo root; undefined when it is not there. */
export function realTrafficCasesDir(): string | undefined {
  const dir = join(projectRoot(), '..', 'shared', 'real-traffic', 'cases');
  return existsSync(dir) ? dir : undefined;
}

export function loadRealCases(dir: string): RealCase[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (
        !isPlainObject(raw) ||
        typeof raw.id !== 'string' ||
        typeof raw.family !== 'string' ||
        (raw.kind !== 'body' && raw.kind !== 'stream')
      ) {
        throw new InputError(file, '', 'not a real-traffic case (id, family, kind)');
      }
      return {
        id: raw.id,
        family: raw.family as FamilyId,
        kind: raw.kind,
        ...(raw.body !== undefined ? { body: raw.body } : {}),
        ...(typeof raw.sse === 'string' ? { sse: raw.sse } : {}),
        expect: isPlainObject(raw.expect) ? raw.expect : {},
        ...(raw.itemIdsRotate === true ? { itemIdsRotate: true } : {}),
        file,
      };
    });
}

/** The route a case is read through: the family's row whose id the case names, else its first row. */
export function policyForCase(c: RealCase): RoutePolicy {
  const table = loadRouteTable();
  const rows = table.routes.filter((r) => r.family === c.family);
  const named = rows.find((r) => c.id.includes(`-${r.id}-`) || c.id.includes(`-${r.id}`)) ?? rows[0];
  if (!named) throw new InvariantError(`no route of family ${c.family}`);
  const target = sampleTargetForRoute(named);
  return resolveRoute(table, c.family === 'bedrock-converse' ? { ...target, model: 'anthropic.claude-test' } : target);
}
