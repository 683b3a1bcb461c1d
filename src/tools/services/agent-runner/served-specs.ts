import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';

/**
 * The provider mocks `run --provider P...` serves: the chosen specs and those that share their base URL
 * (--provider openai serves /openai/responses too); every spec when none is chosen.
 */
export function servedSpecs(all: ProviderSpec[], providers: readonly string[]): ProviderSpec[] {
  if (providers.length === 0) return all;
  const chosenBases = new Set(all.filter((s) => providers.includes(s.id)).map((s) => s.endpoint.baseUrl));
  return all.filter((s) => providers.includes(s.id) || chosenBases.has(s.endpoint.baseUrl));
}
