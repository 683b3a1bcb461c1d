import type { FamilyId } from '../wire/families.js';
import type { Scenario } from './scenario.js';

/**
 * What applicability reads of a provider spec: its id and wire family, and (where the spec has them) its target model
 * and the refusals of that model that are refusals of tools.
 */
export interface ScenarioTarget {
  id: string;
  family: FamilyId;
  target?: { model?: string };
  models?: { refuses?: ReadonlyArray<{ match: string; tools?: boolean }> };
}

/** Whether the target's model takes no tools at all (a `models.refuses` entry marked `tools` matches it). */
export function takesNoTools(spec: ScenarioTarget): boolean {
  const model = spec.target?.model;
  if (model === undefined) return false;
  return (spec.models?.refuses ?? []).some((entry) => entry.tools === true && new RegExp(entry.match).test(model));
}

/**
 * Whether a scenario is run against a provider target at all (otherwise the cell is n/a). A scenario that declares
 * tools does not apply to a model that takes none: every call would be refused, which says nothing of the route.
 */
export function scenarioAppliesTo(scenario: Scenario, spec: ScenarioTarget): boolean {
  if (scenario.families && !scenario.families.includes(spec.family)) return false;
  if (scenario.providers && !scenario.providers.includes(spec.id)) return false;
  if ((scenario.tools?.length ?? 0) > 0 && takesNoTools(spec)) return false;
  return true;
}

/** Provider specs a scenario's calls go to besides the target (route switches). */
export function viaProviders(scenario: Scenario): string[] {
  const ids = new Set<string>();
  for (const step of scenario.steps) if ('call' in step && step.call.via) ids.add(step.call.via);
  return [...ids];
}
