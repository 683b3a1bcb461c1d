import type { RouteTable, Tier } from '../../shared/route-table/route-table.js';

/** One single-step edit of a route table, described in words and applied to a copy. */
export interface TableMutation {
  kind:
    | 'add-field'
    | 'remove-field'
    | 'change-tier'
    | 'drop-flag'
    | 'widen-flag'
    | 'remove-host'
    | 'reorder-rows'
    | 'drop-without-reasoning'
    | 'narrow-without-reasoning'
    | 'widen-without-reasoning'
    | 'drop-server-carrier'
    | 'drop-binding-model';
  text: string;
  apply(table: RouteTable): RouteTable;
}

const STANDARD_FIELDS = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;
const TIERS: readonly Tier[] = ['standard', 'strict', 'must-echo'];

const copy = (t: RouteTable): RouteTable => structuredClone(t);

/**
 * Every single-step mutation of `table` the issue names: add or remove a carrier field, change a
 * tier, drop a flag or widen its scope to every model, remove a host, swap two rows; and drop,
 * narrow or widen a row's withoutReasoning (which models are asked for no reasoning). Exhaustive,
 * not sampled: the table is small and judging a mutation is a few hundred microseconds.
 */
export function singleStepMutations(table: RouteTable): TableMutation[] {
  const out: TableMutation[] = [];
  table.routes.forEach((route, i) => {
    for (const field of STANDARD_FIELDS) {
      const has = route.fields.includes(field as never);
      out.push({
        kind: has ? 'remove-field' : 'add-field',
        text: `${has ? 'remove' : 'add'} ${field} ${has ? 'from' : 'to'} route ${route.id}`,
        apply: (t) => {
          const c = copy(t);
          const r = c.routes[i]!;
          r.fields = has ? r.fields.filter((f) => f !== field) : [...r.fields, field as never];
          return c;
        },
      });
    }
    for (const tier of TIERS.filter((x) => x !== route.tier)) {
      out.push({
        kind: 'change-tier',
        text: `route ${route.id}: tier ${route.tier} -> ${tier}`,
        apply: (t) => {
          const c = copy(t);
          c.routes[i]!.tier = tier;
          return c;
        },
      });
    }
    (route.flags ?? []).forEach((flag, j) => {
      const keys = Object.keys(flag.set).join(', ');
      out.push({
        kind: 'drop-flag',
        text: `route ${route.id}: drop flag ${keys}`,
        apply: (t) => {
          const c = copy(t);
          c.routes[i]!.flags!.splice(j, 1);
          if (c.routes[i]!.flags!.length === 0) delete c.routes[i]!.flags;
          return c;
        },
      });
      if (flag.when) {
        out.push({
          kind: 'widen-flag',
          text: `route ${route.id}: send flag ${keys} to every model (drop its "when")`,
          apply: (t) => {
            const c = copy(t);
            delete c.routes[i]!.flags![j]!.when;
            return c;
          },
        });
      }
    });
    // withoutReasoning: drop it (every model is asked for reasoning again), drop one of its models,
    // or widen it to every model the row serves (models that reason asked for none).
    const without = route.withoutReasoning;
    if (without) {
      out.push({
        kind: 'drop-without-reasoning',
        text: `route ${route.id}: drop withoutReasoning`,
        apply: (t) => {
          const c = copy(t);
          delete c.routes[i]!.withoutReasoning;
          return c;
        },
      });
      (without.models ?? []).forEach((model, j) => {
        if ((without.models?.length ?? 0) + (without.versions?.length ?? 0) < 2) return;
        out.push({
          kind: 'narrow-without-reasoning',
          text: `route ${route.id}: withoutReasoning no longer lists ${JSON.stringify(model)}`,
          apply: (t) => {
            const c = copy(t);
            c.routes[i]!.withoutReasoning!.models!.splice(j, 1);
            if (c.routes[i]!.withoutReasoning!.models!.length === 0) delete c.routes[i]!.withoutReasoning!.models;
            return c;
          },
        });
      });
      out.push({
        kind: 'widen-without-reasoning',
        text: `route ${route.id}: withoutReasoning for every model (any model id)`,
        apply: (t) => {
          const c = copy(t);
          c.routes[i]!.withoutReasoning = { ...c.routes[i]!.withoutReasoning!, models: [''] };
          delete c.routes[i]!.withoutReasoning!.versions;
          return c;
        },
      });
    }
    // Provider-side carriers: a route stops reading back a kind it owns, or stops leaving out a binding model's thinking.
    (route.serverCarriers ?? []).forEach((carrier, j) => {
      out.push({
        kind: 'drop-server-carrier',
        text: `route ${route.id}: serverCarriers no longer lists ${carrier.kind}`,
        apply: (t) => {
          const c = copy(t);
          c.routes[i]!.serverCarriers!.splice(j, 1);
          if (c.routes[i]!.serverCarriers!.length === 0) delete c.routes[i]!.serverCarriers;
          return c;
        },
      });
    });
    (route.thinkingBinding?.models ?? []).forEach((model, j) => {
      out.push({
        kind: 'drop-binding-model',
        text: `route ${route.id}: thinkingBinding no longer lists ${JSON.stringify(model)}`,
        apply: (t) => {
          const c = copy(t);
          const binding = c.routes[i]!.thinkingBinding!;
          binding.models = binding.models!.filter((_, k) => k !== j);
          if (binding.models.length === 0) delete c.routes[i]!.thinkingBinding;
          return c;
        },
      });
    });
    (route.match.hosts ?? []).forEach((host, j) => {
      out.push({
        kind: 'remove-host',
        text: `route ${route.id}: remove host ${host}`,
        apply: (t) => {
          const c = copy(t);
          c.routes[i]!.match.hosts!.splice(j, 1);
          if (c.routes[i]!.match.hosts!.length === 0) delete c.routes[i]!.match.hosts;
          return c;
        },
      });
    });
    for (let j = i + 1; j < table.routes.length; j++) {
      const other = table.routes[j]!;
      out.push({
        kind: 'reorder-rows',
        text: `swap rows ${route.id} and ${other.id}`,
        apply: (t) => {
          const c = copy(t);
          [c.routes[i], c.routes[j]] = [c.routes[j]!, c.routes[i]!];
          return c;
        },
      });
    }
  });
  return out;
}
