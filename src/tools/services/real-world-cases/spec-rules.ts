import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ProviderSpec, Rejection } from '../../../shared/provider-specs/provider-spec.js';
import type { RuleClass } from '../../../shared/provider-specs/rule-class.js';
import { ruleClassOf, type RuleReference } from './rule-class-of.js';

/**
 * One rule a provider spec makes its mock enforce. Every rule the specs hold, whatever its section (a forbidden
 * field, a must-echo rule, a message rule, a schema constraint, a per-model constraint), answers with a named entry
 * of a `rejections` table, and a mock's finding names that entry. So a rule is counted as its rejection: found by
 * walking the spec's data, never by a list of section names, so that a section added later (per-model constraints,
 * history rules) is counted without a change here.
 */
export interface SpecRule {
  /** `<spec id>/<rejection id>`: what a finding fired by a real case is matched on. */
  key: string;
  provider: string;
  rejection: string;
  /**
   * Where the spec points at the rejection, as the section of its data: `schema` (the request schema's answers),
   * `forbid`, `echo`, `messageRules`, `parameters`, `upstreams`, or the name of any section added later; `judge`
   * when no data points at it (a rule a family's judge applies by its own code: signatures, block order).
   */
  kinds: string[];
  /** Contested in the spec: sources disagree. */
  contested: boolean;
  /**
   * The class of rule (rule-class-of.ts); absent only on a gateway's envelope (`request.upstreamEnvelope`), which
   * wraps its upstream's refusal and is no rule of its own.
   */
  ruleClass?: RuleClass;
}

/** Section names as the report prints them: `request` is where the schema's own answers are named. */
const SECTION_LABEL: Record<string, string> = { request: 'schema' };

/**
 * Keys whose string value names a rejection (`rejection`, `refusedBy`, `invalidRejection`, ...), and tables whose
 * every value does (`keywordRejections`: the rejection per failure class of the schema).
 */
const namesRejection = (key: string) => key === 'rejection' || key === 'refusedBy' || key.endsWith('Rejection');
const namesRejections = (key: string) => key.endsWith('Rejections') && key !== 'rejections';

/** A gateway's envelope for its upstream's refusals: an answer format, not a rule of the gateway's own. */
const ENVELOPE_KEY = 'upstreamEnvelope';

/** Every `rejections` table in the spec (the top level's, each model variant's, any later section's). */
function rejectionTables(value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) rejectionTables(v, out);
  else if (isPlainObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (k === 'rejections' && isPlainObject(v)) out.push(v);
      // A rejection's own body is an answer, not rules; the schema holds JSON Schema, not rejections.
      else if (k !== 'schema') rejectionTables(v, out);
    }
  return out;
}

/**
 * The section a path into the spec belongs to: its first key, or below a model variant the variant's own key
 * (`models.variants.2.forbid` is `forbid`), since a variant holds the same sections as the spec.
 */
function sectionOf(path: readonly string[]): string {
  // The parameter tables (`models.parameters`) are the `parameters` section: per-model parameter constraints.
  if (path[0] === 'models' && path[1] === 'parameters') return 'parameters';
  const section = path[0] === 'models' && path[1] === 'variants' && path[3] !== undefined ? path[3] : path[0]!;
  return SECTION_LABEL[section] ?? section;
}

/** Each rejection id named anywhere in the spec's data, with where (section, and a forbid entry's path). */
function references(value: unknown, path: string[], out: Map<string, RuleReference[]>): void {
  const add = (id: string, reference: RuleReference) => {
    const list = out.get(id) ?? [];
    out.set(id, [...list, reference]);
  };
  if (Array.isArray(value)) value.forEach((v, i) => references(v, [...path, String(i)], out));
  else if (isPlainObject(value))
    for (const [k, v] of Object.entries(value)) {
      // A rejection's own body is an answer, and the request schema is JSON Schema: neither names rules.
      if (k === 'rejections' || (k === 'schema' && path.length === 1)) continue;
      if (typeof v === 'string' && k === ENVELOPE_KEY) add(v, { section: 'envelope' });
      else if (typeof v === 'string' && namesRejection(k) && path.length > 0) {
        const section = sectionOf([...path, k]);
        add(v, section === 'forbid' && typeof value.path === 'string' ? { section, path: value.path } : { section });
      } else if (namesRejections(k) && isPlainObject(v) && path.length > 0) {
        for (const id of Object.values(v)) if (typeof id === 'string') add(id, { section: sectionOf([...path, k]) });
      } else references(v, [...path, k], out);
    }
}

/** Rules per spec object: the rule and class coverages both ask, and a loaded spec is never edited in place. */
const rulesOf = new WeakMap<ProviderSpec, readonly SpecRule[]>();

/** The rules of one provider spec, sorted by rejection id (read once per spec object). */
export function specRules(spec: ProviderSpec): readonly SpecRule[] {
  let rules = rulesOf.get(spec);
  if (!rules) rulesOf.set(spec, (rules = Object.freeze(readSpecRules(spec))));
  return rules;
}

function readSpecRules(spec: ProviderSpec): SpecRule[] {
  const ids = new Map<string, boolean>();
  // The first table's entry (the spec's own before a variant's rewording) stands for the rule's kind and class.
  const first = new Map<string, Rejection>();
  for (const table of rejectionTables(spec))
    for (const [id, rejection] of Object.entries(table)) {
      ids.set(id, (ids.get(id) ?? false) || (isPlainObject(rejection) && rejection.contested !== undefined));
      if (!first.has(id) && isPlainObject(rejection)) first.set(id, rejection as unknown as Rejection);
    }
  const refs = new Map<string, RuleReference[]>();
  references(spec, [], refs);
  const carriers = spec.response?.carriers ?? [];
  return [...ids.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rejection, contested]) => {
      const named = refs.get(rejection) ?? [];
      const envelope = named.length > 0 && named.every((r) => r.section === 'envelope');
      const ruleClass = envelope ? undefined : ruleClassOf(first.get(rejection), named, carriers);
      return {
        key: `${spec.id}/${rejection}`,
        provider: spec.id,
        rejection,
        kinds: named.length === 0 ? ['judge'] : [...new Set(named.map((r) => r.section))].sort(),
        contested,
        ...(ruleClass ? { ruleClass } : {}),
      };
    });
}
