import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputError } from '../../shared/errors/input-error.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { defaultRoutesFile, loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { policyFor } from '../../shared/route-table/policy-for.js';
import { defaultTargetForRoute, resolveCliRoute } from './resolve-cli-route.js';

/** `--route ID` stands for a real provider target, and a mistyped `--provider` is never silent. */
const table = loadRouteTable(defaultRoutesFile());
const specs = loadProviderSpecs();
afterEach(() => vi.restoreAllMocks());

describe('resolveCliRoute', () => {
  it('--route names the provider spec that lands on the row: its own id, API host and model', () => {
    expect(resolveCliRoute(table, { route: 'groq' }, specs).target).toEqual({
      provider: 'groq',
      host: 'api.groq.com',
      model: 'openai/gpt-oss-120b',
    });
    // Every row a spec reaches gets a model some spec really names, never a made-up "<route>-model".
    const models = new Set(specs.map((s) => s.target.model));
    for (const route of table.routes) {
      if (!specs.some((s) => policyFor(table, s).routeId === route.id)) continue;
      const target = defaultTargetForRoute(table, route, specs);
      expect(models.has(target.model), `${route.id}: ${target.model}`).toBe(true);
      expect(resolveCliRoute(table, { route: route.id }, specs).routeId).toBe(route.id);
    }
  });

  it('a typo of a known provider id that would fall to the default route is refused with a did-you-mean', () => {
    let refused: unknown;
    try {
      resolveCliRoute(table, { provider: 'deepsek', host: 'example.com', model: 'm' }, specs);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).message).toBe(
      '--provider: no provider "deepsek" in the route table or the provider specs; it would fall to the default route (hint: did you mean "deepseek"?)',
    );
  });

  it('a typo its host still routes, or an id of ones own, is named on stderr and resolves as before', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(resolveCliRoute(table, { provider: 'deepsek', host: 'api.deepseek.com', model: 'm' }, specs).routeId).toBe(
      'deepseek',
    );
    expect(resolveCliRoute(table, { provider: 'my-own-gateway', host: 'example.com', model: 'm' }, specs).routeId).toBe(
      'default',
    );
    expect(resolveCliRoute(table, { provider: 'deepseek', host: 'api.deepseek.com', model: 'm' }, specs).routeId).toBe(
      'deepseek',
    );
    expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([
      'reasoning-replay: --provider "deepsek" is in no route of the table (did you mean "deepseek"?); the target resolves to route deepseek by its host and model\n',
      'reasoning-replay: --provider "my-own-gateway" is in no route of the table; the target resolves to route default by its host and model\n',
    ]);
  });
});
