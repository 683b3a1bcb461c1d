import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { OutputCap } from './live-limits.js';

const segments = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

function valueAt(body: unknown, pointer: string): unknown {
  let at: unknown = body;
  for (const key of segments(pointer)) {
    if (!isPlainObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

/** A copy of `body` with `value` at `pointer`, creating the objects on the way. */
function withValue(body: Record<string, unknown>, pointer: string, value: number): Record<string, unknown> {
  const keys = segments(pointer);
  const out = structuredClone(body);
  let at: Record<string, unknown> = out;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1)!] = value;
  return out;
}

/** The largest thinking budget the body names (0 when none): the cap must stay above it. */
function budgetOf(body: unknown, cap: OutputCap): number {
  let most = 0;
  for (const pointer of cap.budgets ?? []) {
    const value = valueAt(body, pointer);
    if (typeof value === 'number' && Number.isFinite(value)) most = Math.max(most, value);
  }
  return most;
}

export interface CappedBody {
  body: Record<string, unknown>;
  /** The output the request is bounded by: its cap (0: refused before any answer), or undefined when it has none. */
  maxTokens: number | undefined;
}

/** A copy of `body` with every thinking budget above the provider's least lowered to it. */
function lowerBudgets(body: Record<string, unknown>, cap: OutputCap): Record<string, unknown> {
  let out = body;
  for (const pointer of cap.budgets ?? []) {
    const value = valueAt(out, pointer);
    if (cap.minBudget !== undefined && typeof value === 'number' && value > cap.minBudget)
      out = withValue(out, pointer, cap.minBudget);
  }
  return out;
}

/**
 * The smallest output cap the provider allows, without changing what the request tests.
 * - `case`: a real-world case keeps its own cap when that is already smaller (or at the thinking
 *   budget: a case testing "cap not above budget" stays that case), else takes max(provider
 *   minimum, budget + 1). Its budgets are evidence and stay as they are. A case that omits a field
 *   the provider requires is testing its absence and is left without it (refused before answering:
 *   `maxTokens` 0).
 * - `call`: a scenario call the engine built; its thinking budget is the engine's default, not
 *   what the scenario tests, so it is lowered to the provider's least first.
 * - `setup`: the family's setup cap, so the model finishes the reasoning whose blob a case needs.
 */
export function capOutput(body: Record<string, unknown>, cap: OutputCap, kind: 'case' | 'call' | 'setup'): CappedBody {
  if (kind === 'call') body = lowerBudgets(body, cap);
  const floor = Math.max(cap.min, budgetOf(body, cap) + (budgetOf(body, cap) > 0 ? 1 : 0));
  const own = valueAt(body, cap.field);
  if (kind === 'setup') {
    const value = Math.max(cap.setup, floor);
    return { body: withValue(body, cap.field, value), maxTokens: value };
  }
  if (own === undefined) {
    if (cap.required) return { body, maxTokens: 0 };
    return { body: withValue(body, cap.field, floor), maxTokens: floor };
  }
  if (typeof own !== 'number' || !Number.isFinite(own)) return { body, maxTokens: undefined };
  if (own <= floor) return { body, maxTokens: own };
  return { body: withValue(body, cap.field, floor), maxTokens: floor };
}
