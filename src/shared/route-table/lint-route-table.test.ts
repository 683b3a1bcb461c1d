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
    const problems = lintRouteTable(
      table(r('wide', { hosts: ['example.com'] }), r('narrow', { hosts: ['api.example.com'] }), fallback),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]!.pointer).toBe('/routes/1/match');
    expect(problems[0]!.problem).toContain('"narrow" can never be reached');
    expect(problems[0]!.problem).toContain('"wide"');
  });

  it('keeps a route reachable through one key of its own', () => {
    expect(lintRouteTable(table(r('a', { providers: ['p'] }), r('b', { providers: ['p', 'q'] }), fallback))).toEqual(
      [],
    );
  });

  it('does not count an earlier model-filtered route as shadowing', () => {
    expect(
      lintRouteTable(table(r('a', { hosts: ['x.com'], models: ['claude'] }), r('b', { hosts: ['x.com'] }), fallback)),
    ).toEqual([]);
  });

  it('rejects a default that is not last, and a table without a default', () => {
    expect(lintRouteTable(table(fallback, r('a', { providers: ['a'] }))).map((p) => p.pointer)).toEqual([
      '/routes/0/match/default',
      '/routes/1/match',
    ]);
    expect(lintRouteTable(table(r('a', { providers: ['a'] }))).map((p) => p.problem)).toEqual([
      'the last route is not a default, so some requests match no route',
    ]);
  });

  it('rejects a field the wire family cannot carry, and duplicate ids', () => {
    const problems = lintRouteTable(
      table(
        r('a', { providers: ['a'] }, { family: 'gemini', fields: ['reasoning_content'] }),
        r('a', { providers: ['b'] }),
        fallback,
      ),
    );
    expect(problems.map((p) => p.pointer)).toEqual(['/routes/0/fields/0', '/routes/1/id']);
    expect(problems[0]!.problem).toContain('gemini family cannot carry');
  });

  it('checks upstream-model rules: known routes, routes that can carry the echo, examples that match, patterns that compile', () => {
    const strict = r('strict', { providers: ['s'] }, { tier: 'strict', fields: [] });
    const rule = {
      id: 'm',
      label: 'm',
      tier: 'must-echo' as const,
      sources: ['https://example.com'],
      examples: ['m-v2'],
      versions: [{ pattern: 'm-v(\\d+)', min: '2' }],
    };
    const t = (on: string[], extra: object = {}) => ({
      ...table(strict, fallback),
      upstreamModels: [{ ...rule, ...extra, on: on.map((route) => ({ route, sources: ['https://example.com'] })) }],
    });
    expect(lintRouteTable(t(['default']))).toEqual([]);
    expect(lintRouteTable(t(['nope'])).map((p) => p.pointer)).toEqual(['/upstreamModels/0/on/0/route']);
    expect(lintRouteTable(t(['strict']))[0]!.problem).toContain('cannot apply to route "strict"');
    expect(lintRouteTable(t(['default'], { examples: ['m-v1'] })).map((p) => p.pointer)).toEqual([
      '/upstreamModels/0/examples/0',
    ]);
    expect(
      lintRouteTable(t(['default'], { versions: [{ pattern: 'm-v\\d+', min: '2' }] })).map((p) => p.pointer),
    ).toEqual(['/upstreamModels/0/versions/0/pattern']);
  });

  it('checks version patterns in flags', () => {
    const problems = lintRouteTable(
      table(
        r(
          'a',
          { providers: ['a'] },
          { flags: [{ when: { versions: [{ pattern: 'qwen(', min: '3' }] }, set: { x: 1 } }] },
        ),
        fallback,
      ),
    );
    expect(problems.map((p) => p.pointer)).toEqual(['/routes/0/flags/0/when/versions/0/pattern']);
  });
});
