import type { ProviderSpec } from './provider-spec.js';

/**
 * Provider specs by id, for rules that consult another spec: a gateway applies its upstream's
 * rules (specs/providers/openrouter.json `upstreams` names `anthropic`, `deepseek`, ...). Filled
 * by loadProviderSpecs and by whoever builds mocks from specs of their own.
 */
const byId = new Map<string, ProviderSpec>();

export function registerProviderSpecs(specs: Iterable<ProviderSpec>): void {
  for (const spec of specs) byId.set(spec.id, spec);
}

export function registeredProviderSpec(id: string): ProviderSpec | undefined {
  return byId.get(id);
}
