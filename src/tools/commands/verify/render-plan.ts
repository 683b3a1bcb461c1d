import type { LiveProvider } from './live-providers.js';
import type { PlannedItem } from './plan-verify.js';
import type { Caps } from './spend-guard.js';

const usd = (n: number) => `$${n.toFixed(n < 0.01 ? 6 : 4)}`;

export interface PlanSummary {
  items: number;
  requests: number;
  cost: number;
  providers: number;
  skipped: number;
  /** Items whose provider's key is not set: counted above, skipped by a live run until it is. */
  needingKeys: number;
  /** Where these caps would stop a live run, if they would. */
  stopsBefore?: { item: string; requests: number; cost: number; cap: string };
}

/** Totals of a plan, and where the caps would stop it (the items run in this order). */
export function summarizePlan(items: readonly PlannedItem[], caps: Caps): PlanSummary {
  const planned = items.filter((i) => !i.skip);
  let requests = 0;
  let cost = 0;
  let stopsBefore: PlanSummary['stopsBefore'];
  for (const i of planned) {
    if (!stopsBefore) {
      const cap =
        requests + i.requests.length > caps.maxRequests
          ? `--max-requests ${caps.maxRequests}`
          : cost + i.cost > caps.maxCost + 1e-12
            ? `--max-cost ${caps.maxCost}`
            : undefined;
      if (cap) stopsBefore = { item: `${i.provider} ${i.kind} ${i.id}`, requests, cost, cap };
    }
    requests += i.requests.length;
    cost += i.cost;
  }
  return {
    items: planned.length,
    requests,
    cost,
    providers: new Set(planned.map((i) => i.provider)).size,
    skipped: items.length - planned.length,
    needingKeys: planned.filter((i) => i.needsKey).length,
    ...(stopsBefore ? { stopsBefore } : {}),
  };
}

/**
 * What a dry run prints: per provider, each item with each request it would send (where, how big,
 * its output cap, its estimated cost), the skipped items grouped by reason, then the totals and
 * where the caps would stop the run. Bodies are printed with `bodies` (a run narrowed to named
 * cases or scenarios); `--json` holds them always.
 */
export function renderPlan(
  items: readonly PlannedItem[],
  providers: readonly LiveProvider[],
  caps: Caps,
  options: { bodies?: boolean } = {},
): string {
  const lines = ['dry run: nothing is sent.'];
  const keys = providers.filter((p) => p.keyEnv && !p.limits.unavailable && p.limits.baseUrl !== 'yours');
  const unset = keys.filter((p) => p.missingKey).map((p) => p.keyEnv!);
  if (unset.length > 0)
    lines.push(
      `not set (their providers' items are planned, and skipped by a live run until set): ${[...new Set(unset)].join(', ')}`,
    );
  let provider = '';
  for (const item of items.filter((i) => !i.skip)) {
    if (item.provider !== provider) {
      provider = item.provider;
      lines.push('', provider);
    }
    const setups = item.requests.filter((r) => r.label.startsWith('setup')).length;
    lines.push(
      `  ${item.kind} ${item.id}: ${item.requests.length} request(s)${setups ? ` (${setups} setup)` : ''}, ≈ ${usd(item.cost)}`,
    );
    for (const r of item.requests)
      lines.push(
        `    ${r.label.padEnd(8)} POST ${r.url}  ${Buffer.byteLength(JSON.stringify(r.body))} B, ≈ ${r.estimate.inputTokens} in + ${r.maxTokens ?? `${r.estimate.outputTokens} (no cap)`} out tokens, ≈ ${usd(r.estimate.cost)}`,
        ...(options.bodies
          ? JSON.stringify(r.body, null, 2)
              .split('\n')
              .map((l) => `      ${l}`)
          : []),
      );
  }
  const skipped = new Map<string, string[]>();
  for (const item of items.filter((i) => i.skip)) {
    const reason = item.skip!;
    skipped.set(reason, [...(skipped.get(reason) ?? []), `${item.provider} ${item.kind} ${item.id}`]);
  }
  if (skipped.size > 0) {
    lines.push('', 'skipped:');
    for (const [reason, which] of [...skipped.entries()].sort((a, b) => b[1].length - a[1].length))
      lines.push(
        `  ${which.length} × ${reason}: ${which.slice(0, 4).join(', ')}${which.length > 4 ? `, and ${which.length - 4} more` : ''}`,
      );
  }
  const s = summarizePlan(items, caps);
  lines.push(
    '',
    `total: ${s.requests} request(s) over ${s.items} item(s) and ${s.providers} provider(s), estimated cost ${usd(s.cost)}; ${s.skipped} item(s) skipped.`,
  );
  lines.push(
    s.stopsBefore
      ? `with --max-requests ${caps.maxRequests} and --max-cost ${caps.maxCost}, a live run would stop before ${s.stopsBefore.item} (after ${s.stopsBefore.requests} request(s), ≈ ${usd(s.stopsBefore.cost)}: ${s.stopsBefore.cap}).`
      : `with --max-requests ${caps.maxRequests} and --max-cost ${caps.maxCost}, a live run would send all of it.`,
  );
  return lines.join('\n') + '\n';
}
