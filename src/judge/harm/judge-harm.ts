import type { EchoRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { findRoute, resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RouteDefinition, RoutePolicy, RouteTable, RouteTarget } from '../../shared/route-table/route-table.js';
import type { Behaviour, JudgeFinding } from '../conformance/verdict.js';
import {
  echoRejection,
  echoRules,
  harmData,
  messageKeyVerdict,
  parameterVerdict,
  specSource,
  type KeyVerdict,
} from './provider-expectations.js';
import { isDefaultRoute, routeDeliveries, type Delivery } from './route-delivery.js';
import { familyDescriptor } from '../../shared/wire/families.js';
import { assessProviderSideCarriers } from './provider-side-carriers.js';

/**
 * The gate's harm judge: for one provider target, what the route the table resolves for it puts on
 * the wire, held against what the provider spec (data with sources) says the provider reads,
 * ignores, rejects, and wants back. It never asks the engine; it reads the table and the spec.
 *
 * - fail: the provider rejects a request (a closed schema, a missing required echo, a wire it does
 *   not speak), or silently loses a carrier or parameter it documents as wanted, or is sent a key
 *   no source says it takes;
 * - warn: the provider rejects a carrier as unknown on the default route, where the unknown-field
 *   fallback recovers at the cost of one extra round trip per new (provider, host, model);
 * - everything else is harmless, and `reasons` says why, line by line.
 */
export interface TargetAssessment {
  provider: string;
  label: string;
  target: RouteTarget;
  /** Set when this is one of the spec's `reachedAs` targets rather than its main one. */
  reachedAs?: string;
  route: string;
  findings: JudgeFinding[];
  /**
   * Why each carrier and parameter that travels, or does not, is harmless: one line each, keyed by the carrier or
   * parameter.
   */
  reasons: Array<{ item: string; text: string }>;
  /** What this target receives, in the judge's own terms: compared across tables by the mutation test. */
  profile: string[];
  /** The table row it resolves through, as data: a changed row with an unchanged profile is named, never "no spec". */
  row: string;
  /** What the row lists that never travels, and why (a strict row's fields): said when the row changes. */
  unsent?: string;
}

function targetsOf(spec: ProviderSpec): Array<{ target: RouteTarget; reachedAs?: string }> {
  const host = new URL(spec.endpoint.baseUrl).host;
  const main = { target: { provider: spec.target.provider, host, model: spec.target.model } };
  const more = (harmData(spec).reachedAs ?? []).map((r) => ({
    target: { provider: r.provider, host: r.host ?? host, model: spec.target.model },
    reachedAs: `reached as provider "${r.provider}" at ${r.host ?? host} (${r.source})`,
  }));
  // A per-model variant's example models are targets too: the rules that differ for them (a model
  // that refuses a parameter the route asks every model for) are judged on a model that has them.
  const variants = (spec.models?.variants ?? []).flatMap((v) =>
    (v.examples ?? []).map((model) => ({
      target: { provider: spec.target.provider, host, model },
      reachedAs: `as model ${model}, ${v.label} (${v.sources[0] ?? specSource(spec)})`,
    })),
  );
  return [main, ...more, ...variants];
}

const turnWords = (t: EchoRule['turns']) =>
  t === 'tool-call-turns' ? 'tool-call turns' : t === 'assistant-turns' ? 'every assistant turn' : 'the current turn';

/** Does a delivery satisfy an echo rule on the turns it names? */
function satisfies(d: Delivery, rule: EchoRule): boolean {
  const names = [rule.field, ...((rule as { aliases?: string[] }).aliases ?? [])];
  if (!names.includes(d.carrier)) return false;
  if (d.turns === 'current-loop') return rule.turns !== 'assistant-turns';
  return true;
}

/** A flag `when` wider than the models the provider documents the parameter for. */
function widerThanDocumented(
  when: RouteDefinition['flags'] extends Array<infer F> | undefined
    ? F extends { when?: infer W }
      ? W
      : never
    : never,
  documented: string[],
): string | undefined {
  if (!when) return 'every model of the route';
  const models = (when as { models?: string[] }).models;
  if (!models) return undefined;
  const loose = models.filter((m) => !documented.some((d) => m.toLowerCase().includes(d.toLowerCase())));
  return loose.length ? `models matching ${loose.map((m) => JSON.stringify(m)).join(', ')}` : undefined;
}

/** Every leaf of `wanted` holds in `actual` (objects compared key by key). */
function holds(wanted: unknown, actual: unknown): boolean {
  if (wanted !== null && typeof wanted === 'object' && !Array.isArray(wanted)) {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(wanted as Record<string, unknown>).every(([k, v]) =>
      holds(v, (actual as Record<string, unknown>)[k]),
    );
  }
  return JSON.stringify(wanted) === JSON.stringify(actual);
}

function modelIn(model: string, models: string[] | undefined): boolean {
  return !models || models.some((m) => model.toLowerCase().includes(m.toLowerCase()));
}

export function assessTarget(
  table: RouteTable,
  spec: ProviderSpec,
  target: RouteTarget,
  reachedAs?: string,
): TargetAssessment {
  // The rule set this model gets (a spec's per-model variants may drop or replace rules).
  spec = specForModel(spec, target.model);
  const route = findRoute(table, target);
  const policy: RoutePolicy = resolveRoute(table, target);
  const who = `${spec.label}${reachedAs ? ` (${reachedAs})` : ''}`;
  const findings: JudgeFinding[] = [];
  const reasons: Array<{ item: string; text: string }> = [];
  const because = (item: string, text: string) => reasons.push({ item, text });
  const profile: string[] = [`route ${policy.routeId}`, `family ${policy.family}`];
  const add = (
    behaviour: Behaviour,
    status: 'fail' | 'warn',
    f: Omit<JudgeFinding, 'behaviour' | 'status' | 'provider' | 'route'>,
  ) => findings.push({ behaviour, status, provider: spec.id, route: policy.routeId, ...f });

  if (policy.family !== spec.family) {
    add('provider-accepts', 'fail', {
      turns: 'every-request',
      source: specSource(spec),
      detail: `${who} speaks ${spec.family}, but route ${policy.routeId} sends it ${policy.family} requests: every request is refused`,
    });
    return {
      provider: spec.id,
      label: spec.label,
      target,
      ...(reachedAs ? { reachedAs } : {}),
      route: policy.routeId,
      findings,
      reasons,
      profile,
      row: JSON.stringify(route),
    };
  }

  const deliveries = routeDeliveries(policy);
  for (const d of deliveries)
    profile.push(
      `carrier ${d.carrier} ${d.turns}${d.padded ? ' padded' : ''}${d.padOnly ? ' pad-only' : ''}${d.signed === false ? ' unsigned' : ''}`,
    );

  // 1. Every key a chat-shaped message carries: read, ignored, rejected, or nobody knows.
  for (const d of deliveries.filter((x) => x.messageKey)) {
    const v: KeyVerdict = messageKeyVerdict(spec, d.carrier);
    const base = { turns: 'assistant-turns' as const, field: d.carrier, source: v.source };
    if (v.kind === 'reads')
      because(d.carrier, `sends ${d.carrier} (${d.because}); ${spec.label} takes it (its request schema names it)`);
    else if (v.kind === 'ignores')
      because(d.carrier, `sends ${d.carrier} (${d.because}); ${spec.label} ignores it (${v.source})`);
    else if (v.kind === 'rejects') {
      const status = v.rejection ? `${v.rejection.status} ` : '';
      const recoverable =
        isDefaultRoute(route) && v.rejection?.kind === 'unknown-field' && !(d.padded && policy.tier === 'must-echo');
      if (recoverable) {
        add('fallback-recovers', 'warn', {
          ...base,
          detail: `${who} rejects ${d.carrier} as unknown (${status}${v.rejectionId}, ${v.source}); default route ${policy.routeId} sends it on assistant turns that hold reasoning, so every new session pays one rejected request and a retry through the fallback`,
        });
      } else {
        add('strict-schema', 'fail', {
          ...base,
          detail: `${who} rejects ${d.carrier} (${status}${v.rejectionId}, ${v.source}); route ${policy.routeId} sends it (${d.because}) on assistant turns that hold reasoning${isDefaultRoute(route) ? '' : ': a named route gets no fallback, its row is wrong'}`,
        });
      }
    } else {
      add('fields-sent', 'fail', {
        ...base,
        detail: `route ${policy.routeId} sends ${d.carrier} to ${who} (${d.because}), but specs/providers/${spec.id}.json neither names it in its request schema nor documents that ${spec.label} ignores it: an unknown key may be rejected or change behaviour. Add the evidence to the spec (request schema or "ignores", with a source) or do not send it`,
      });
    }
  }

  // 1b. The fallback retries once, without the fields the rejection names: a provider that names
  // one field per error (OpenAI) rejects the retry when two sent fields are unknown to it.
  const unknownOnDefault = findings.filter((f) => f.status === 'warn' && f.behaviour === 'fallback-recovers');
  if (unknownOnDefault.length > 1) {
    for (const f of unknownOnDefault.slice(1)) {
      f.status = 'fail';
      f.detail += `; it already rejects ${unknownOnDefault[0]!.field} the same way and the fallback retries only once, so the retry is rejected too`;
    }
  }

  // 2. Every carrier the provider wants back: delivered, or rejected / silently lost without it.
  for (const rule of wantedBack(spec)) {
    // The pad goes out on tool-call turns only: a rule on other turns is not met by it at all.
    const d = deliveries.find((x) => satisfies(x, rule) && !(x.padOnly && rule.turns !== 'tool-call-turns'));
    const where = turnWords(rule.turns);
    if (
      d &&
      d.signed === false &&
      rule.level === 'required' &&
      Object.values(spec.rejections).some((r) => r.kind === 'missing-signature')
    ) {
      const r = Object.entries(spec.rejections).find(([, x]) => x.kind === 'missing-signature')!;
      add('signatures-verbatim', 'fail', {
        turns: rule.turns === 'current-turn' ? 'tool-call-turns' : rule.turns,
        field: rule.field,
        source: r[1].sources[0] ?? specSource(spec),
        detail: `${who} requires signed ${rule.field} on ${where}; route ${policy.routeId} replays it without its signature (${d.because}): ${r[1].status} ${r[0]} (${r[1].sources[0] ?? specSource(spec)})`,
      });
      continue;
    }
    // Only the pad where history holds reasoning: accepted on the wire, the reasoning itself lost.
    if (d?.padOnly) {
      const contested = (rule as { contested?: unknown }).contested !== undefined;
      add(rule.field === 'reasoning_content' ? 'must-echo' : 'fields-sent', contested ? 'warn' : 'fail', {
        turns: 'tool-call-turns',
        field: rule.field,
        source: rule.source ?? specSource(spec),
        detail: `${who} wants ${rule.field} back on ${where} (${rule.level}, ${rule.source ?? specSource(spec)}); ${d.because}, in place of the stored reasoning: it is silently lost between turns`,
      });
      continue;
    }
    // A required reasoning_content echo on a chat wire also covers turns that hold no reasoning
    // (captured on another route, or compacted): only the must-echo pad fills those.
    const needsPad =
      rule.level === 'required' &&
      rule.field === 'reasoning_content' &&
      rule.turns === 'tool-call-turns' &&
      d &&
      !d.padded;
    if (d && !needsPad) {
      because(
        rule.field,
        `wants ${rule.field} back on ${where} (${rule.level}); route ${policy.routeId} sends it (${d.because})`,
      );
      continue;
    }
    const turns = rule.turns === 'current-turn' ? 'tool-call-turns' : rule.turns;
    // Public sources disagree on this rule: the harm is reported, as a warning.
    const contested = (rule as { contested?: { sources: string[] } }).contested;
    const severity = contested ? ('warn' as const) : ('fail' as const);
    const disputed = contested ? ` (contested: ${contested.sources.join(', ')})` : '';
    if (rule.level === 'required') {
      const rej = echoRejection(spec, rule);
      add(rule.field === 'reasoning_content' ? 'must-echo' : 'fields-sent', severity, {
        turns,
        field: rule.field,
        source: rej.source,
        detail: needsPad
          ? `${who} rejects a tool-call turn without ${rule.field} (${rej.status ?? ''} ${rej.id ?? ''}, ${rej.source}); route ${policy.routeId} is ${policy.tier}, not must-echo, so a tool-call turn that holds no reasoning (captured on another route, compacted) goes out without it${disputed}`
          : `${who} rejects ${where} without ${rule.field} (${rej.status ?? ''} ${rej.id ?? ''}, ${rej.source}); route ${policy.routeId} does not send it${disputed}`,
      });
    } else {
      add('fields-sent', severity, {
        turns,
        field: rule.field,
        source: rule.source ?? specSource(spec),
        detail: `${who} wants ${rule.field} back on ${where} and degrades silently without it (${rule.source ?? specSource(spec)}); route ${policy.routeId} does not send it${d?.turns === 'current-loop' ? ' beyond the current tool loop' : ''}${disputed}`,
      });
    }
  }

  // 3. Vendor parameters (flags): taken, wanted, and scoped to the models that have them.
  const params = harmData(spec).parameters ?? {};
  for (const [key, value] of Object.entries(policy.flags)) {
    profile.push(`parameter ${key}=${JSON.stringify(value)}`);
    const v = parameterVerdict(spec, key);
    const documented = params[key];
    if (documented && !modelIn(target.model, documented.models)) {
      add('fields-sent', 'fail', {
        turns: 'every-request',
        field: key,
        source: documented.source,
        detail: `route ${policy.routeId} sends ${key} to ${who} for model ${target.model}, which ${spec.label} does not document it for (${documented.source})`,
      });
    } else if (v.kind === 'rejects') {
      add('strict-schema', 'fail', {
        turns: 'every-request',
        field: key,
        source: v.source,
        detail: `${who} rejects the parameter ${key} (${v.rejection?.status ?? ''} ${v.rejectionId}, ${v.source}); route ${policy.routeId} sets it on every request`,
      });
    } else if (v.kind === 'undocumented' && !documented) {
      add('fields-sent', 'fail', {
        turns: 'every-request',
        field: key,
        source: v.source,
        detail: `route ${policy.routeId} sets ${key} on every request to ${who}, but specs/providers/${spec.id}.json does not document that parameter: add it with a source (request schema or "parameters") or do not send it`,
      });
    } else because(key, `parameter ${key} is one ${spec.label} takes (${documented?.source ?? v.source})`);
  }
  for (const flag of route.flags ?? []) {
    for (const key of Object.keys(flag.set)) {
      const documented = params[key];
      if (!documented?.models) continue;
      const wider = widerThanDocumented(flag.when as never, documented.models);
      if (wider) {
        add('fields-sent', 'fail', {
          turns: 'every-request',
          field: key,
          source: documented.source,
          detail: `route ${policy.routeId} sends ${key} to ${wider} on ${spec.label}, but ${spec.label} documents it only for ${documented.models.join(', ')} (${documented.source})`,
        });
      }
    }
  }
  for (const [key, doc] of Object.entries(params)) {
    if (doc.wanted === undefined || !modelIn(target.model, doc.models)) continue;
    if (holds(doc.wanted, policy.flags[key]))
      because(key, `wants ${key}=${JSON.stringify(doc.wanted)}; route ${policy.routeId} sets it`);
    else {
      add('fields-sent', 'fail', {
        turns: 'every-request',
        field: key,
        source: doc.source,
        detail: `${who} keeps replayed reasoning only with ${key}=${JSON.stringify(doc.wanted)} (${doc.source}); route ${policy.routeId} sends ${policy.flags[key] === undefined ? 'no such parameter' : JSON.stringify(policy.flags[key])}: the reasoning it replays is silently dropped`,
      });
    }
  }

  // 4. Parameters the family asks every model for its reasoning with (the wire's data), unless the
  // row lists the model under withoutReasoning: held against what the spec says the model refuses.
  const asked = familyDescriptor(policy.family).reasoningRequest ?? {};
  if (policy.withoutReasoning) {
    profile.push('asks no reasoning back');
    const refusing = Object.keys(asked).some((key) => refusedFor(spec, key));
    // A model that reasons and is asked for nothing back has nothing to replay: its required reasoning echo can never
    // be met.
    const echo = refusing ? undefined : wantedBack(spec).find((r) => r.level === 'required');
    for (const key of Object.keys(asked)) {
      if (echo) {
        add('fields-sent', 'fail', {
          turns: echo.turns === 'current-turn' ? 'tool-call-turns' : echo.turns,
          field: key,
          source: echo.source ?? specSource(spec),
          detail: `route ${policy.routeId} lists ${target.model} under withoutReasoning, so ${who} is never asked for its reasoning (${key}); but ${target.model} reasons and ${spec.label} wants ${echo.field} back on ${turnWords(echo.turns)} (${echo.source ?? specSource(spec)}): with nothing to replay, its reasoning is silently lost between turns`,
        });
      } else
        because(
          `asked:${key}`,
          `asks ${target.model} for no reasoning (${key} left out: route ${policy.routeId} lists it under withoutReasoning)${refusing ? `, and ${spec.label} refuses it for this model` : ''}`,
        );
    }
  } else {
    for (const [key, value] of Object.entries(asked)) {
      // Named apart from carriers and flags of the same name (the Responses `reasoning` object is not the carrier).
      profile.push(`parameter asked:${key}=${JSON.stringify(value)}`);
      const refusal = refusedFor(spec, key);
      if (refusal) {
        add('provider-accepts', 'fail', {
          turns: 'every-request',
          field: key,
          source: refusal.source,
          detail: `${who} refuses ${key} for model ${target.model} (${refusal.status} ${refusal.id}, ${refusal.source}); route ${policy.routeId} asks every model for its reasoning with it (the ${policy.family} wire) and does not list ${target.model} under withoutReasoning: every request is refused`,
        });
      } else
        because(
          `asked:${key}`,
          `asks for reasoning with ${key}; specs/providers/${spec.id}.json names no refusal of it for ${target.model}${params[key]?.refusedBy ? ` (only models whose rules define ${params[key].refusedBy} refuse it)` : ''}`,
        );
    }
  }

  // Provider-side carriers: compaction items and thinking bound to its prefix (provider-side-carriers.ts).
  const sideways = assessProviderSideCarriers(table, spec, target, policy, who);
  for (const f of sideways.findings) add(f.behaviour, f.status as 'fail' | 'warn', f);
  for (const r of sideways.reasons) because(r.item, r.text);
  profile.push(...sideways.profile);
  if (deliveries.length === 0 && wantedBack(spec).length === 0)
    because('*', `route ${policy.routeId} sends no reasoning carrier and ${spec.label} wants none back`);
  for (const c of ['reasoning_content', 'reasoning', 'reasoning_details']) {
    if (policy.family !== 'openai-chat' && policy.family !== 'copilot') break;
    if (deliveries.some((d) => d.carrier === c) || wantedBack(spec).some((r) => r.field === c)) continue;
    because(c, `does not get ${c}, which ${spec.label} does not ask for back`);
  }
  return {
    provider: spec.id,
    label: spec.label,
    target,
    ...(reachedAs ? { reachedAs } : {}),
    route: policy.routeId,
    findings,
    reasons,
    profile,
    row: JSON.stringify(route),
    ...(policy.tier === 'strict' && policy.fields.length > 0
      ? {
          unsent: `route ${policy.routeId} is strict, so the fields it lists (${policy.fields.join(', ')}) never travel`,
        }
      : {}),
  };
}

/**
 * The rejection a model answers to `key` when the spec says it refuses that parameter and this model's rule set defines
 * the refusal.
 */
function refusedFor(spec: ProviderSpec, key: string): { id: string; status: number; source: string } | undefined {
  const id = harmData(spec).parameters?.[key]?.refusedBy;
  const rejection = id === undefined ? undefined : spec.rejections[id];
  return id && rejection
    ? { id, status: rejection.status, source: rejection.sources[0] ?? specSource(spec) }
    : undefined;
}

/**
 * What the provider wants back: its echo rules, as data with sources (a code heuristic here would be the judge
 * guessing).
 */
function wantedBack(spec: ProviderSpec): EchoRule[] {
  return echoRules(spec);
}

/**
 * Every provider target of every spec (its main target and each `reachedAs`) under one table. An
 * assessment depends only on the spec, the target and the row it resolves to, so `cache` (shared
 * across tables, e.g. by the mutation test) skips targets whose row did not change.
 */
export function assessTable(
  table: RouteTable,
  specs: readonly ProviderSpec[],
  cache?: Map<string, TargetAssessment>,
): TargetAssessment[] {
  return specs.flatMap((spec) =>
    targetsOf(spec).map(({ target, reachedAs }) => {
      if (!cache) return assessTarget(table, spec, target, reachedAs);
      const key = `${spec.id}\u0000${reachedAs ?? ''}\u0000${JSON.stringify(findRoute(table, target))}`;
      let hit = cache.get(key);
      if (!hit) cache.set(key, (hit = assessTarget(table, spec, target, reachedAs)));
      return hit;
    }),
  );
}
