import { FAMILY_CARRIER_FIELDS } from '../families/known-fields.js';
import { hostMatches } from './host-matching.js';
import type { RouteDefinition, RouteTable } from './route-table.js';

export interface TableProblem {
  pointer: string;
  problem: string;
  hint: string;
}

/** Can an earlier route `a` capture every request that `b` could match by `key`? (Conservative: a model filter on `a` never captures.) */
function captures(a: RouteDefinition, b: RouteDefinition): boolean {
  if (a.match.default) return true;
  if (a.match.models) return false;
  const providerDead = (p: string) => a.match.providers?.includes(p) ?? false;
  const hostDead = (h: string) => a.match.hosts?.some((ah) => hostMatches(h, ah)) ?? false;
  const paths = [
    ...(b.match.providers ?? []).map((p) => providerDead(p)),
    ...(b.match.hosts ?? []).map((h) => hostDead(h)),
    ...(b.match.local ? [a.match.local === true] : []),
  ];
  return paths.length > 0 && paths.every(Boolean);
}

/**
 * Problems a schema cannot see: duplicate ids, a default that is not last, a route that no request
 * can ever reach, a field the route's wire family cannot carry.
 */
export function lintRouteTable(table: RouteTable): TableProblem[] {
  const problems: TableProblem[] = [];
  const seen = new Map<string, number>();
  table.routes.forEach((route, i) => {
    const at = `/routes/${i}`;
    const prior = seen.get(route.id);
    if (prior !== undefined) {
      problems.push({ pointer: `${at}/id`, problem: `route id "${route.id}" is already used at /routes/${prior}`, hint: 'route ids must be unique' });
    }
    seen.set(route.id, i);
    const known = FAMILY_CARRIER_FIELDS[route.family];
    route.fields.forEach((field, j) => {
      if (!known.includes(field)) {
        problems.push({
          pointer: `${at}/fields/${j}`,
          problem: `route "${route.id}" lists "${field}", which the ${route.family} family cannot carry`,
          hint: `${route.family} carries: ${known.join(', ') || 'no standard field'}`,
        });
      }
    });
    if (route.match.default && i !== table.routes.length - 1) {
      problems.push({ pointer: `${at}/match/default`, problem: `route "${route.id}" is a default but is not last, so routes after it can never be reached`, hint: 'move the default route to the end' });
    }
    const earlier = table.routes.slice(0, i);
    const shadow = earlier.find((a) => !a.match.default && captures(a, route));
    if (!route.match.default && shadow) {
      problems.push({
        pointer: `${at}/match`,
        problem: `route "${route.id}" can never be reached: every provider and host it matches is matched first by route "${shadow.id}"`,
        hint: 'move it above that route, or give it a provider or host of its own',
      });
    }
  });
  const last = table.routes.at(-1);
  if (last && !last.match.default) {
    problems.push({ pointer: `/routes/${table.routes.length - 1}/match`, problem: 'the last route is not a default, so some requests match no route', hint: 'end the table with a route whose match is {"default": true}' });
  }
  return problems;
}
