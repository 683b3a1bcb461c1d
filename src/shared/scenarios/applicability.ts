import type { FamilyId } from '../wire/families.js';
import type { Scenario } from './scenario.js';

/** What applicability reads of a provider spec: its id and wire family. */
export interface ScenarioTarget {
  id: string;
  family: FamilyId;
}

/** Whether a scenario is run against a provider target at all (otherwise the cell is n/a). */
export function scenarioAppliesTo(scenario: Scenario, spec: ScenarioTarget): boolean {
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
