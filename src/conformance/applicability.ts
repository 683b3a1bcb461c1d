import type { ProviderSpec } from '../providers/provider-spec.js';
import type { Scenario } from '../scenarios/scenario.js';

/** Whether a scenario is run against a provider target at all (otherwise the cell is n/a). */
export function scenarioAppliesTo(scenario: Scenario, spec: ProviderSpec): boolean {
  if (scenario.families && !scenario.families.includes(spec.family)) return false;
  if (scenario.providers && !scenario.providers.includes(spec.id)) return false;
  return true;
}

/** Provider specs a scenario's calls go to besides the target (route switches). */
export function viaProviders(scenario: Scenario): string[] {
  const ids = new Set<string>();
  for (const step of scenario.steps) if ('call' in step && step.call.via) ids.add(step.call.via);
  return [...ids];
}
