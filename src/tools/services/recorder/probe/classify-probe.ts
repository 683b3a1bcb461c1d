import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../../../shared/history/history.js';
import { hostMatches, normalizeHost } from '../../../../shared/route-table/host-matching.js';
import type { FamilyId, RouteDefinition, RouteTarget, Tier } from '../../../../shared/route-table/route-table.js';
import type { ProbeOutcome } from './probe-route.js';
import { InvariantError } from '../../../../shared/errors/invariant-error.js';

export interface ProbeClassification {
  /** `inconclusive` when even the turn without reasoning was refused (auth, model, quota...). */
  tier: Tier | 'inconclusive';
  reason: string;
  accepted: StandardCarrierField[];
  /** Refused with unknown-field phrasing naming the field (what the fallback would recover from). */
  rejectedAsUnknown: StandardCarrierField[];
  /** Refused for another reason (must-echo wording, a validation error). */
  rejectedOtherwise: StandardCarrierField[];
}

const byField = (outcomes: ProbeOutcome[], field: string) => outcomes.find((o) => o.variant === field);

/**
 * Reads the four answers:
 *  - must-echo: the turn WITHOUT reasoning is refused and not as an unknown field, while the same
 *    turn with reasoning_content is accepted;
 *  - strict: the bare turn is accepted and every carrier is refused (unknown-field phrasing, or any
 *    refusal: a route must not send what the endpoint refuses, whatever the wording);
 *  - standard: the bare turn and at least one carrier are accepted.
 */
export function classifyProbe(outcomes: ProbeOutcome[]): ProbeClassification {
  const accepted = STANDARD_CARRIER_FIELDS.filter((f) => byField(outcomes, f)?.accepted);
  const rejectedAsUnknown = STANDARD_CARRIER_FIELDS.filter(
    (f) => !byField(outcomes, f)?.accepted && byField(outcomes, f)?.unknownField,
  );
  const rejectedOtherwise = STANDARD_CARRIER_FIELDS.filter(
    (f) => !byField(outcomes, f)?.accepted && !byField(outcomes, f)?.unknownField,
  );
  const base = { accepted, rejectedAsUnknown, rejectedOtherwise };
  const bare = byField(outcomes, 'none');
  if (!bare) throw new InvariantError('internal: probe outcomes lack the variant without reasoning');
  if (!bare.accepted) {
    if (accepted.includes('reasoning_content') && !bare.unknownField) {
      return {
        tier: 'must-echo',
        reason: `the turn without reasoning_content was refused (${bare.status}: ${bare.wording ?? ''}) and accepted with it`,
        ...base,
      };
    }
    return {
      tier: 'inconclusive',
      reason: `even the turn without any reasoning was refused (${bare.status}: ${bare.wording ?? ''}); check the key, model and base URL`,
      ...base,
    };
  }
  if (accepted.length === 0) {
    const how =
      rejectedOtherwise.length === 0
        ? 'as unknown fields'
        : `(${rejectedOtherwise.join(', ')} without unknown-field wording, so the fallback could not recover)`;
    return { tier: 'strict', reason: `every carrier was refused ${how}; the bare turn was accepted`, ...base };
  }
  return { tier: 'standard', reason: `the bare turn and ${accepted.join(', ')} were accepted`, ...base };
}

export interface SuggestedRow {
  row: RouteDefinition;
  /** Fields the endpoint accepted that the row does not send: accepting is not reading. */
  alsoAccepted: StandardCarrierField[];
  /** True when the current route is this target's own row (not the shared local/default one). */
  replacesCurrent: boolean;
}

/** The current route belongs to this target (named by provider or host), rather than catching it as local/default. */
export function isOwnRoute(route: RouteDefinition, target: RouteTarget): boolean {
  const provider = target.provider.trim().toLowerCase();
  return (
    (route.match.providers?.includes(provider) ?? false) ||
    (route.match.hosts?.some((h) => hostMatches(target.host, h)) ?? false)
  );
}

/**
 * The smallest change to the current route that agrees with the probe: it keeps the route's other
 * settings, drops what the endpoint refused, and never adds a field just because it was accepted
 * (a lenient server ignores unknown keys; those fields are listed in `alsoAccepted` instead).
 */
export function suggestRow(
  classification: ProbeClassification,
  current: RouteDefinition,
  target: RouteTarget,
  family: FamilyId,
  evidence: string,
): SuggestedRow | undefined {
  const { tier, accepted } = classification;
  if (tier === 'inconclusive') return undefined;
  let fields: StandardCarrierField[];
  if (tier === 'strict') fields = [];
  else {
    const kept = current.fields.filter((f) => accepted.includes(f));
    if (tier === 'must-echo' && !kept.includes('reasoning_content')) kept.unshift('reasoning_content');
    fields =
      kept.length > 0 ? kept : accepted.includes('reasoning_content') ? ['reasoning_content'] : accepted.slice(0, 1);
    fields = STANDARD_CARRIER_FIELDS.filter((f) => fields.includes(f));
  }
  const own = isOwnRoute(current, target);
  const id = target.provider
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  const row: RouteDefinition = own
    ? { ...structuredClone(current), family, tier, fields, notes: evidence }
    : {
        id,
        label: `${target.provider} (probed)`,
        match: { providers: [target.provider.trim().toLowerCase()], hosts: [normalizeHost(target.host)] },
        family,
        tier,
        fields,
        notes: evidence,
      };
  return { row, alsoAccepted: accepted.filter((f) => !fields.includes(f)), replacesCurrent: own };
}

/** What would change in the table; empty when the current route already agrees with the probe. */
export function diffRoute(current: RouteDefinition, suggested: SuggestedRow): string[] {
  const { row } = suggested;
  const lines: string[] = [];
  if (current.tier !== row.tier) lines.push(`tier: ${current.tier} -> ${row.tier}`);
  if (current.family !== row.family) lines.push(`family: ${current.family} -> ${row.family}`);
  for (const f of current.fields) if (!row.fields.includes(f)) lines.push(`fields: - ${f}`);
  for (const f of row.fields) if (!current.fields.includes(f)) lines.push(`fields: + ${f}`);
  if (lines.length > 0 && !suggested.replacesCurrent) {
    lines.unshift(
      `new row "${row.id}" before "${current.id}" (the target now falls to the shared route "${current.id}")`,
    );
  }
  return lines;
}
