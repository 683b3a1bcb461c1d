import { describe, expect, it } from 'vitest';
import { lintRouteTable } from './lint-route-table.js';
import type { RouteDefinition, RouteTable } from './route-table.js';

const r = (id: string, match: RouteDefinition['match'], extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
  id,
  label: id,
  match,
  family: 'openai-chat',
  tier: 'standard',
  fields: ['reasoning_content'],
  ...extra,
});
const table = (...routes: RouteDefinition[]): RouteTable => ({ version: 1, routes });
const fallback = r('default', { default: true });

describe('lintRouteTable', () => {
  it('accepts a sane table', () => {
    expect(lintRouteTable(table(r('a', { providers: ['a'] }), fallback))).toEqual([]);
  });

  it('finds a route every key of which an earlier route already matches', () => {
    const problems = lintRouteTable(table(r('wide', { hosts: ['example.com'] }), r('narrow', { hosts: ['api.example.com'] }), fallback));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.pointer).toBe('/routes/1/match');
    expect(problems[0]!.problem).toContain('"narrow" can never be reached');
    expect(problems[0]!.problem).toContain('"wide"');
  });

  it('keeps a route reachable through one key of its own', () => {
    expect(lintRouteTable(table(r('a', { providers: ['p'] }), r('b', { providers: ['p', 'q'] }), fallback))).toEqual([]);
  });

  it('does not count an earlier model-filtered route as shadowing', () => {
    expect(lintRouteTable(table(r('a', { hosts: ['x.com'], models: ['claude'] }), r('b', { hosts: ['x.com'] }), fallback))).toEqual([]);
  });

  it('rejects a default that is not last, and a table without a default', () => {
    expect(lintRouteTable(table(fallback, r('a', { providers: ['a'] }))).map((p) => p.pointer)).toEqual(['/routes/0/match/default', '/routes/1/match']);
    expect(lintRouteTable(table(r('a', { providers: ['a'] }))).map((p) => p.problem)).toEqual(['the last route is not a default, so some requests match no route']);
  });

  it('rejects a field the wire family cannot carry, and duplicate ids', () => {
    const problems = lintRouteTable(table(r('a', { providers: ['a'] }, { family: 'gemini', fields: ['reasoning_content'] }), r('a', { providers: ['b'] }), fallback));
    expect(problems.map((p) => p.pointer)).toEqual(['/routes/0/fields/0', '/routes/1/id']);
    expect(problems[0]!.problem).toContain('gemini family cannot carry');
  });
});
