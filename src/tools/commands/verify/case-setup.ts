import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { resolvePlaceholders } from '../../services/real-world-cases/resolve-placeholders.js';
import type { IssuedBlob } from './issued-blobs.js';

/**
 * How a real-world case is set up live. A case writes each signed or encrypted blob as a mock
 * placeholder ($mockSignature, $mockRedacted, $mockOpaque, $mockEncrypted, $mockItemId): a real
 * provider knows nothing of the mock's keys. A case declares its setup by where its placeholders
 * sit, so no case file changes: each model turn holding one is a *setup group*, and the live
 * provider is asked for that turn by sending the case's own request cut just before it (the
 * earlier groups already filled in). Its answer's blobs fill the group's placeholders, in the
 * order and places the placeholders name; the text beside a Claude signature is the live text
 * when the case signed the text it sends, and the case's own (edited) text when it did not.
 * A case whose placeholders no live answer can fill is skipped with the reason.
 */
export const TURN_LISTS = ['messages', 'contents', 'input'] as const;
export type TurnList = (typeof TURN_LISTS)[number];

export interface SetupGroup {
  /** Index range [from, to) in the turn list. */
  from: number;
  to: number;
}

export type SetupPlan =
  { kind: 'none' } | { kind: 'setup'; list: TurnList; groups: SetupGroup[] } | { kind: 'impossible'; reason: string };

type Placeholder = [string, Record<string, unknown>];

function asPlaceholder(value: unknown): Placeholder | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || !keys[0]!.startsWith('$mock') || !isPlainObject(value[keys[0]!])) return undefined;
  return [keys[0]!, value[keys[0]!] as Record<string, unknown>];
}

function placeholdersIn(value: unknown, out: Placeholder[] = []): Placeholder[] {
  const p = asPlaceholder(value);
  if (p) out.push(p);
  else if (Array.isArray(value)) value.forEach((v) => placeholdersIn(v, out));
  else if (isPlainObject(value)) Object.values(value).forEach((v) => placeholdersIn(v, out));
  return out;
}

/** An item the client sent on the model's behalf (Responses input is a flat list of items). */
function isModelItem(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  if (item.type === 'reasoning' || item.type === 'function_call') return true;
  return item.role === 'assistant' || item.role === 'model';
}

/** Why a placeholder cannot be filled from the live provider, or undefined when it can. */
function unfillable([kind, args]: Placeholder, provider: string): string | undefined {
  if (kind === '$mockOpaque' && args.signer !== 'gemini' && args.signer !== 'vertex-gemini')
    return `a ${String(args.signer)} opaque blob (${kind}), which no setup call here obtains`;
  if (kind === '$mockEncrypted') {
    const issuer = typeof args.issuer === 'string' ? args.issuer : 'openai-responses';
    if (issuer !== provider)
      return `encrypted reasoning issued to another organization (${issuer}), which one key cannot obtain`;
  }
  return undefined;
}

/** Where a case's placeholders sit, and so which setup calls it needs. */
export function planSetup(body: unknown, provider: string): SetupPlan {
  const all = placeholdersIn(body);
  if (all.length === 0) return { kind: 'none' };
  for (const p of all) {
    const why = unfillable(p, provider);
    if (why) return { kind: 'impossible', reason: `the case needs ${why}` };
  }
  const list = TURN_LISTS.find((k) => isPlainObject(body) && Array.isArray(body[k]));
  if (!list || !isPlainObject(body))
    return { kind: 'impossible', reason: 'its placeholders sit outside a messages, contents or input list' };
  const items = body[list] as unknown[];
  const outside = placeholdersIn({ ...body, [list]: [] }).length;
  if (outside > 0) return { kind: 'impossible', reason: `${outside} placeholder(s) sit outside the ${list} list` };
  const groups: SetupGroup[] = [];
  for (let i = 0; i < items.length; i++) {
    if (placeholdersIn(items[i]).length === 0) continue;
    let from = i;
    let to = i + 1;
    // Responses: the reasoning item and the items it produced are one turn.
    if (list === 'input') {
      while (from > 0 && isModelItem(items[from - 1])) from--;
      while (to < items.length && isModelItem(items[to])) to++;
    }
    const last = groups.at(-1);
    if (last && from < last.to) last.to = Math.max(last.to, to);
    else groups.push({ from, to });
    i = to - 1;
  }
  if (groups[0]!.from === 0)
    return {
      kind: 'impossible',
      reason: `its first ${list} item holds a placeholder: no earlier turn to ask the live provider`,
    };
  return { kind: 'setup', list, groups };
}

const describe = (blobs: readonly IssuedBlob[]) =>
  blobs.length === 0 ? 'none' : [...new Set(blobs.map((b) => b.kind))].join(', ');

/**
 * Fills one group's placeholders from the blobs of the live answer to its setup call. Returns the
 * filled items and the item ids to rename (a Responses reasoning id the case invented, now the
 * live one), or the reason the answer cannot fill them.
 */
export function fillGroup(
  items: readonly unknown[],
  blobs: readonly IssuedBlob[],
  renames: Map<string, string>,
): { items: unknown[] } | { reason: string } {
  let problem: string | undefined;
  const thoughts = blobs.filter((b) => b.kind === 'gemini-thought');
  const encrypted = blobs.filter((b) => b.kind === 'responses-encrypted');
  let nextThought = 0;
  let nextEncrypted = 0;
  const missing = (what: string) => {
    problem ??= `the live setup answer held no ${what} (it held: ${describe(blobs)})`;
    return undefined;
  };
  const fill = (kind: string, args: Record<string, unknown>, parent: Record<string, unknown>): string | undefined => {
    const ordinal = typeof args.ordinal === 'number' ? args.ordinal : 0;
    switch (kind) {
      case '$mockSignature': {
        const blob = blobs.find((b) => b.kind === 'claude-signature' && b.ordinal === ordinal);
        if (!blob || blob.kind !== 'claude-signature')
          return missing(`signed thinking block at reasoning ordinal ${ordinal}`);
        // The case sends the text it signed: send the live text. It sends other text: keep that edit.
        for (const key of ['thinking', 'text'])
          if (typeof parent[key] === 'string' && parent[key] === args.thinking) parent[key] = blob.text;
        return blob.value;
      }
      case '$mockRedacted': {
        const blob = blobs.find((b) => b.kind === 'claude-redacted' && b.ordinal === ordinal);
        return blob ? blob.value : missing(`redacted thinking block at reasoning ordinal ${ordinal}`);
      }
      case '$mockOpaque': {
        const blob = thoughts[nextThought++];
        return blob ? blob.value : missing(`thought signature number ${nextThought}`);
      }
      case '$mockEncrypted': {
        const blob = encrypted[nextEncrypted++];
        if (!blob || blob.kind !== 'responses-encrypted')
          return missing(`encrypted reasoning item number ${nextEncrypted}`);
        if (typeof args.itemId === 'string') renames.set(args.itemId, blob.itemId);
        return blob.value;
      }
      case '$mockItemId': {
        const reasoningId =
          typeof args.reasoningId === 'string' ? (renames.get(args.reasoningId) ?? args.reasoningId) : '';
        const blob = blobs.find(
          (b) =>
            b.kind === 'responses-item-id' &&
            b.type === args.type &&
            b.reasoningId === reasoningId &&
            b.ordinal === ordinal,
        );
        return blob
          ? blob.value
          : missing(`${String(args.type)} item id at ordinal ${ordinal} after its reasoning item`);
      }
      default:
        return missing(`blob for ${kind}`);
    }
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = { ...value };
    for (const key of Object.keys(out)) {
      // Read the current value: filling a signature may have set its sibling text already.
      const v = out[key];
      const p = asPlaceholder(v);
      out[key] = p ? (fill(p[0], p[1], out) ?? v) : walk(v);
    }
    return out;
  };
  const filled = items.map(walk);
  return problem ? { reason: problem } : { items: filled };
}

/** Every string equal to a renamed id, replaced (a Responses item id is referenced where it was invented). */
export function renameIds(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (renames.size === 0) return value;
  if (typeof value === 'string') return renames.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => renameIds(v, renames));
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameIds(v, renames)]));
  return value;
}

/** What the mock judges: the same request with its placeholders resolved by the mock signers. */
export const mockBody = (body: unknown) => resolvePlaceholders(body);
