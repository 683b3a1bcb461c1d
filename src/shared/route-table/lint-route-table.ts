import { FAMILY_CARRIER_FIELDS, familyDescriptor } from '../wire/families.js';
import { hostMatches } from './host-matching.js';
import { modelMatches, versionPatternProblem } from './model-match.js';
import type { ModelMatcher, RouteDefinition, RouteTable } from './route-table.js';

export interface TableProblem {
  pointer: string;
  problem: string;
  hint: string;
}

/**
 * Can an earlier route `a` capture every request that `b` could match by `key`? (Conservative: a model filter on `a`
 * never captures.)
 */
function captures(a: RouteDefinition, b: RouteDefinition): boolean {
  if (a.match.default) return true;
  if (a.match.models || a.match.versions) return false;
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
      problems.push({
        pointer: `${at}/id`,
        problem: `route id "${route.id}" is already used at /routes/${prior}`,
        hint: 'route ids must be unique',
      });
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
      problems.push({
        pointer: `${at}/match/default`,
        problem: `route "${route.id}" is a default but is not last, so routes after it can never be reached`,
        hint: 'move the default route to the end',
      });
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
  table.routes.forEach((route, i) => {
    if (route.withoutReasoning && !familyDescriptor(route.family).reasoningRequest) {
      problems.push({
        pointer: `/routes/${i}/withoutReasoning`,
        problem: `route "${route.id}" lists models without reasoning, but the ${route.family} family asks no model for reasoning, so it changes nothing`,
        hint: 'remove it; it applies to families that ask every model for reasoning back (openai-responses)',
      });
    }
    problems.push(...versionProblems(route.withoutReasoning, `/routes/${i}/withoutReasoning`));
    problems.push(...versionProblems(route.match, `/routes/${i}/match`));
    route.flags?.forEach((flag, j) => problems.push(...versionProblems(flag.when, `/routes/${i}/flags/${j}/when`)));
  });
  problems.push(...upstreamProblems(table));
  const last = table.routes.at(-1);
  if (last && !last.match.default) {
    problems.push({
      pointer: `/routes/${table.routes.length - 1}/match`,
      problem: 'the last route is not a default, so some requests match no route',
      hint: 'end the table with a route whose match is {"default": true}',
    });
  }
  return problems;
}

function versionProblems(matcher: ModelMatcher | undefined, at: string): TableProblem[] {
  return (matcher?.versions ?? []).flatMap((range, k) => {
    const problem = versionPatternProblem(range.pattern);
    return problem
      ? [
          {
            pointer: `${at}/versions/${k}/pattern`,
            problem: `the version pattern ${JSON.stringify(range.pattern)} ${problem}`,
            hint: 'e.g. "qwen(\\d+(?:\\.\\d+)?)" reads 3.6 from qwen3.6-plus',
          },
        ]
      : [];
  });
}

/**
 * An upstream-model rule raises a route to must-echo, which only means something on a route that
 * sends reasoning_content on the chat wire and is not strict (strict wins: never a reasoning key).
 */
function upstreamProblems(table: RouteTable): TableProblem[] {
  const problems: TableProblem[] = [];
  const seen = new Set<string>();
  table.upstreamModels?.forEach((rule, i) => {
    const at = `/upstreamModels/${i}`;
    if (seen.has(rule.id))
      problems.push({
        pointer: `${at}/id`,
        problem: `upstream-model rule id "${rule.id}" is used twice`,
        hint: 'rule ids must be unique',
      });
    seen.add(rule.id);
    const patternProblems = versionProblems(rule, at);
    problems.push(...patternProblems);
    if (patternProblems.length === 0) {
      rule.examples.forEach((example, j) => {
        if (!modelMatches(example, rule))
          problems.push({
            pointer: `${at}/examples/${j}`,
            problem: `upstream-model rule "${rule.id}" does not match its own example "${example}"`,
            hint: 'widen models/versions, or fix the example',
          });
      });
    }
    rule.on.forEach((on, j) => {
      const route = table.routes.find((r) => r.id === on.route);
      const pointer = `${at}/on/${j}/route`;
      if (!route) {
        problems.push({
          pointer,
          problem: `upstream-model rule "${rule.id}" names route "${on.route}", which the table does not have`,
          hint: `one of: ${table.routes.map((r) => r.id).join(', ')}`,
        });
      } else if (
        route.tier === 'strict' ||
        route.family !== 'openai-chat' ||
        !route.fields.includes('reasoning_content')
      ) {
        problems.push({
          pointer,
          problem: `upstream-model rule "${rule.id}" cannot apply to route "${route.id}" (${route.tier}, ${route.family}, fields ${route.fields.join(', ') || 'none'})`,
          hint: 'the must-echo treatment needs a non-strict openai-chat route that sends reasoning_content',
        });
      }
    });
  });
  return problems;
}
