import type {
  ModelPolicy,
  RouteDefinition,
  RouteMatch,
  RouteTable,
  UpstreamModelRule,
  VendorFlag,
} from '../../../shared/route-table/route-table.js';

/** One change between two route tables, said in words a reviewer can check against the diff. */
export interface RouteChange {
  route: string;
  kind:
    'added' | 'removed' | 'reordered' | 'match' | 'family' | 'tier' | 'fields' | 'flags' | 'native' | 'policy' | 'docs';
  text: string;
  /** JSON pointer into the NEW table where the change shows; a removal points at the routes array. */
  pointer: string;
  /** False for label, sources and notes: they change no request. */
  behavioural: boolean;
}

/**
 * Compares two tables route by route (routes are matched by id). Order matters because the first
 * matching route wins, so moves are reported too: only the routes that actually moved (those off
 * the longest run that kept its relative order), not every route whose index shifted.
 */
export function describeRouteTableDiff(base: RouteTable, head: RouteTable): RouteChange[] {
  const changes: RouteChange[] = [];
  const baseIndex = new Map(base.routes.map((r, i) => [r.id, i]));
  const headIndex = new Map(head.routes.map((r, i) => [r.id, i]));

  head.routes.forEach((route, i) => {
    if (!baseIndex.has(route.id)) {
      changes.push({
        route: route.id,
        kind: 'added',
        pointer: `/routes/${i}`,
        behavioural: true,
        text: `route ${route.id} added at position ${i + 1} (${summarize(route)})`,
      });
    }
  });
  base.routes.forEach((route) => {
    if (!headIndex.has(route.id)) {
      changes.push({
        route: route.id,
        kind: 'removed',
        pointer: '/routes',
        behavioural: true,
        text: `route ${route.id} removed (was ${summarize(route)}); its providers now fall through to later routes`,
      });
    }
  });

  const common = head.routes.filter((r) => baseIndex.has(r.id));
  const kept = longestIncreasing(common.map((r) => baseIndex.get(r.id)!));
  common.forEach((route, k) => {
    if (kept.has(k)) return;
    const i = headIndex.get(route.id)!;
    const j = baseIndex.get(route.id)!;
    changes.push({
      route: route.id,
      kind: 'reordered',
      pointer: `/routes/${i}/id`,
      behavioural: true,
      text: `route ${route.id} reordered: position ${j + 1} -> ${i + 1} (the first matching route wins)`,
    });
  });

  for (const route of common) {
    const i = headIndex.get(route.id)!;
    changes.push(...describeRouteChange(base.routes[baseIndex.get(route.id)!]!, route, `/routes/${i}`));
  }
  changes.push(...describeUpstreamModels(base, head));
  return changes;
}

function describeRouteChange(before: RouteDefinition, after: RouteDefinition, at: string): RouteChange[] {
  const id = after.id;
  const out: RouteChange[] = [];
  const push = (kind: RouteChange['kind'], pointer: string, text: string, behavioural = true) =>
    out.push({ route: id, kind, pointer, text: `route ${id} ${text}`, behavioural });

  out.push(...describeMatch(id, before.match, after.match, `${at}/match`));
  if (before.family !== after.family)
    push('family', `${at}/family`, `now speaks ${after.family} (was ${before.family})`);
  if (before.tier !== after.tier) push('tier', `${at}/tier`, `moved from ${before.tier} to ${after.tier}`);

  const gained = after.fields.filter((f) => !before.fields.includes(f));
  const lost = before.fields.filter((f) => !after.fields.includes(f));
  if (gained.length) {
    const first = after.fields.indexOf(gained[0]!);
    push(
      'fields',
      `${at}/fields/${first}`,
      `now ${before.fields.length - lost.length > 0 ? 'also ' : ''}receives ${list(gained)}`,
    );
  }
  if (lost.length)
    push(
      'fields',
      `${at}/fields`,
      `no longer receives ${list(lost)}${after.fields.length === 0 ? ' (no reasoning field travels now)' : ''}`,
    );
  if (!gained.length && !lost.length && before.fields.join() !== after.fields.join())
    push('fields', `${at}/fields`, `sends its fields in a new order: ${list(after.fields)}`);

  out.push(...describeFlags(id, before.flags ?? [], after.flags ?? [], `${at}/flags`));

  if (before.native !== after.native) {
    const text =
      before.native === undefined
        ? `now receives the native record "${after.native}"`
        : after.native === undefined
          ? `no longer receives the native record "${before.native}"`
          : `native record changed from "${before.native}" to "${after.native}"`;
    push('native', after.native === undefined ? at : `${at}/native`, text);
  }

  out.push(...describePolicies(id, before.modelPolicies ?? [], after.modelPolicies ?? [], `${at}/modelPolicies`));
  if (before.defaultPolicy !== after.defaultPolicy) {
    push(
      'policy',
      after.defaultPolicy === undefined ? at : `${at}/defaultPolicy`,
      `default replay policy ${after.defaultPolicy ?? 'none'} (was ${before.defaultPolicy ?? 'none'})`,
    );
  }

  const without = (r: RouteDefinition) =>
    JSON.stringify({ models: r.withoutReasoning?.models ?? [], versions: r.withoutReasoning?.versions ?? [] });
  if (without(before) !== without(after)) {
    const words = (r: RouteDefinition) =>
      r.withoutReasoning
        ? [
            ...(r.withoutReasoning.models ?? []).map((m) => JSON.stringify(m)),
            ...(r.withoutReasoning.versions ?? []).map((v) => `versions /${v.pattern}/`),
          ].join(', ')
        : 'none';
    push(
      'policy',
      after.withoutReasoning ? `${at}/withoutReasoning` : at,
      `asks no reasoning of models ${words(after)} (was ${words(before)})`,
    );
  }
  if (before.label !== after.label)
    push('docs', `${at}/label`, `label changed to "${after.label}" (no behaviour change)`, false);
  if (JSON.stringify(before.sources ?? []) !== JSON.stringify(after.sources ?? []))
    push('docs', after.sources ? `${at}/sources` : at, 'sources changed (no behaviour change)', false);
  if ((before.notes ?? '') !== (after.notes ?? ''))
    push('docs', after.notes ? `${at}/notes` : at, 'notes changed (no behaviour change)', false);
  return out;
}

function describeMatch(id: string, before: RouteMatch, after: RouteMatch, at: string): RouteChange[] {
  const out: RouteChange[] = [];
  const names = { providers: 'provider', hosts: 'host', models: 'model substring' } as const;
  for (const key of ['providers', 'hosts', 'models'] as const) {
    const b = before[key] ?? [];
    const a = after[key] ?? [];
    const gained = a.filter((x) => !b.includes(x));
    const lost = b.filter((x) => !a.includes(x));
    const noun = (n: number) => `${names[key]}${n === 1 ? '' : 's'}`;
    if (gained.length) {
      const text =
        key === 'models'
          ? `now only matches models containing ${list(a)}`
          : `now also matches ${noun(gained.length)} ${list(gained)}`;
      out.push({
        route: id,
        kind: 'match',
        pointer: `${at}/${key}/${a.indexOf(gained[0]!)}`,
        behavioural: true,
        text: `route ${id} ${text}`,
      });
    }
    if (lost.length) {
      const text =
        key === 'models' && a.length === 0
          ? 'now matches every model'
          : `no longer matches ${noun(lost.length)} ${list(lost)}`;
      out.push({
        route: id,
        kind: 'match',
        pointer: a.length ? `${at}/${key}` : at,
        behavioural: true,
        text: `route ${id} ${text}`,
      });
    }
  }
  for (const key of ['local', 'default'] as const) {
    if (Boolean(before[key]) !== Boolean(after[key])) {
      const what = key === 'local' ? 'local (loopback / LAN) hosts' : 'every target (default route)';
      const text = after[key] ? `now matches ${what}` : `no longer matches ${what}`;
      out.push({
        route: id,
        kind: 'match',
        pointer: after[key] ? `${at}/${key}` : at,
        behavioural: true,
        text: `route ${id} ${text}`,
      });
    }
  }
  return out;
}

/** Flags are compared by what they do (when + set); a changed source alone is documentation. */
function describeFlags(id: string, before: VendorFlag[], after: VendorFlag[], at: string): RouteChange[] {
  const key = (f: VendorFlag) => JSON.stringify({ when: f.when ?? null, set: f.set });
  const beforeKeys = before.map(key);
  const afterKeys = after.map(key);
  const out: RouteChange[] = [];
  const scope = (f: VendorFlag) => {
    if (!f.when) return '';
    const parts = [
      ...(f.when.models ? [`containing ${list(f.when.models)}`] : []),
      ...(f.when.versions ?? []).map(
        (v) => `matching /${v.pattern}/${v.min ? ` from ${v.min}` : ''}${v.below ? ` below ${v.below}` : ''}`,
      ),
    ];
    return ` for models ${parts.join(' or ')}`;
  };
  after.forEach((f, i) => {
    if (!beforeKeys.includes(afterKeys[i]!))
      out.push({
        route: id,
        kind: 'flags',
        pointer: `${at}/${i}`,
        behavioural: true,
        text: `route ${id} now sets ${JSON.stringify(f.set)}${scope(f)}`,
      });
  });
  before.forEach((f, i) => {
    if (!afterKeys.includes(beforeKeys[i]!))
      out.push({
        route: id,
        kind: 'flags',
        pointer: after.length ? at : at.replace(/\/flags$/, ''),
        behavioural: true,
        text: `route ${id} no longer sets ${JSON.stringify(f.set)}${scope(f)}`,
      });
  });
  return out;
}

function describePolicies(id: string, before: ModelPolicy[], after: ModelPolicy[], at: string): RouteChange[] {
  const key = (p: ModelPolicy) => p.models.join('|');
  const out: RouteChange[] = [];
  after.forEach((p, i) => {
    const old = before.find((b) => key(b) === key(p));
    if (!old)
      out.push({
        route: id,
        kind: 'policy',
        pointer: `${at}/${i}`,
        behavioural: true,
        text: `route ${id} now replays models containing ${list(p.models)} with policy ${p.policy}`,
      });
    else if (old.policy !== p.policy)
      out.push({
        route: id,
        kind: 'policy',
        pointer: `${at}/${i}/policy`,
        behavioural: true,
        text: `route ${id} replays models containing ${list(p.models)} with policy ${p.policy} (was ${old.policy})`,
      });
  });
  for (const p of before) {
    if (!after.some((a) => key(a) === key(p))) {
      out.push({
        route: id,
        kind: 'policy',
        pointer: after.length ? at : at.replace(/\/modelPolicies$/, ''),
        behavioural: true,
        text: `route ${id} no longer has a policy for models containing ${list(p.models)} (was ${p.policy})`,
      });
    }
  }
  return out;
}

function summarize(route: RouteDefinition): string {
  return `${route.tier}, ${route.family}, ${route.fields.length ? `receives ${list(route.fields)}` : 'receives no reasoning field'}`;
}

function list(items: string[]): string {
  return items.join(', ');
}

/** Indices (into `seq`) of one longest strictly increasing subsequence: the routes that kept their order. */
function longestIncreasing(seq: number[]): Set<number> {
  const tails: number[] = [];
  const prev: number[] = new Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i !== -1; i = prev[i]!) keep.add(i);
  return keep;
}

/**
 * An upstream-model rule raises the tier of the routes it lists for matching models, so a change
 * to one (its models, versions or routes) is a tier change of every route it lists before or after.
 */
function describeUpstreamModels(base: RouteTable, head: RouteTable): RouteChange[] {
  const what = (r: UpstreamModelRule) =>
    JSON.stringify({
      models: r.models ?? null,
      versions: (r.versions ?? []).map((v) => [v.pattern, v.min ?? null, v.below ?? null]),
      tier: r.tier,
    });
  const before = new Map((base.upstreamModels ?? []).map((r) => [r.id, r]));
  const out: RouteChange[] = [];
  (head.upstreamModels ?? []).forEach((rule, i) => {
    const old = before.get(rule.id);
    before.delete(rule.id);
    const oldRoutes = new Set(old?.on.map((o) => o.route) ?? []);
    const newRoutes = new Set(rule.on.map((o) => o.route));
    const changed = !old || what(old) !== what(rule);
    for (const route of new Set([...oldRoutes, ...newRoutes])) {
      if (!changed && oldRoutes.has(route) === newRoutes.has(route)) continue;
      const text = !newRoutes.has(route)
        ? `route ${route} no longer gets upstream-model rule ${rule.id} (${rule.tier})`
        : `route ${route} now gets upstream-model rule ${rule.id} (${rule.tier}) for ${rule.label}`;
      out.push({ route, kind: 'tier', pointer: `/upstreamModels/${i}`, behavioural: true, text });
    }
  });
  for (const rule of before.values()) {
    for (const on of rule.on)
      out.push({
        route: on.route,
        kind: 'tier',
        pointer: '/upstreamModels',
        behavioural: true,
        text: `route ${on.route} no longer gets upstream-model rule ${rule.id} (removed)`,
      });
  }
  return out;
}
