import type { History, Message } from '../../shared/history/history.js';
import { CHECKPOINT_MARKER, isCheckpoint, makeCheckpoint } from './checkpoint.js';
import { MESSAGE_OVERHEAD_TOKENS, priceMessage, type PricingOptions } from './estimate-tokens.js';
import { salvage } from './salvage.js';
import { holdsServerCompaction } from './server-compaction-floor.js';
import { writeExtractiveSummary, type RoleCounts, type Summarizer } from './summarize.js';

export interface CompressOptions extends PricingOptions {
  summarize?: Summarizer;
  /** Tokens set aside for the new checkpoint; default 10% of the budget, between 16 and 512. */
  summaryTokens?: number;
}

export type CompactionStatus = 'unchanged' | 'compacted' | 'over-budget';

export interface CompactionResult {
  status: CompactionStatus;
  /** False when `history` holds exactly the input messages (nothing to write back). */
  changed: boolean;
  history: History;
  /** For each message of `history`: its index in the input, or null for the new checkpoint. */
  kept: (number | null)[];
  estimateBefore: number;
  estimateAfter: number;
  budget: number;
  /** Input indices of messages not carried over (summarized head, shadowed checkpoints). */
  dropped: number[];
  salvaged: boolean;
  /** Why the result is still over budget (status 'over-budget'). */
  reason?: string;
}

/** Sums `xs[from..to)` (a loop, no slice: a 100k-turn history is priced without copying). */
function sumRange(xs: ArrayLike<number>, from = 0, to = xs.length): number {
  let n = 0;
  for (let i = from; i < to; i++) n += xs[i]!;
  return n;
}

function identity(n: number): number[] {
  const xs = new Array<number>(n);
  for (let i = 0; i < n; i++) xs[i] = i;
  return xs;
}

/** What compaction needs to know of a message after pricing it, one byte each. */
const SYSTEM = 0;
const USER = 1;
const CHECKPOINT = 2;
const ASSISTANT = 3;
const TOOL = 4;

function kindOf(m: Message): number {
  if (m.role === 'user') return isCheckpoint(m) ? CHECKPOINT : USER;
  return m.role === 'system' ? SYSTEM : m.role === 'tool' ? TOOL : ASSISTANT;
}

/** The role counts extractiveSummary writes in its header, from the kinds of the replaced messages. */
function countKinds(kinds: Uint8Array, from: number, to: number): RoleCounts {
  const counts = { user: 0, assistant: 0, tool: 0 };
  for (let i = from; i < to; i++) {
    if (kinds[i] === USER) counts.user += 1;
    else if (kinds[i] === ASSISTANT) counts.assistant += 1;
    else if (kinds[i] === TOOL) counts.tool += 1;
  }
  return counts;
}

/**
 * shadowedCheckpoints (checkpoint.ts) of the candidate, from the kinds: the candidate's positions
 * `kept` (an input index, or null for the new checkpoint). Among the checkpoints before its last
 * real user message, every one but the last.
 */
function shadowedAmong(kept: readonly (number | null)[], kinds: Uint8Array): number[] {
  const kindAt = (j: number) => (kept[j] === null ? CHECKPOINT : kinds[kept[j]!]);
  let lastUser = kept.length - 1;
  while (lastUser >= 0 && kindAt(lastUser) !== USER) lastUser--;
  const before: number[] = [];
  for (let j = 0; j < lastUser; j++) if (kindAt(j) === CHECKPOINT) before.push(j);
  return before.slice(0, -1);
}

/**
 * The input indices `kept` leaves out, ascending, and whether `kept` is the input unchanged. Every candidate keeps its
 * inputs in their order, so the gaps between consecutive kept indices are the dropped ones: found in one walk of
 * `kept`, with no mark per input message (a 100k-entry mark array and a second walk over it were a quarter of
 * compaction's own work at 100k turns, and the part that grew faster than the history). Out of order, marks decide.
 */
export function droppedInputs(
  kept: readonly (number | null)[],
  inputs: number,
): { dropped: number[]; inOrder: boolean } {
  let inOrder = kept.length === inputs;
  let keptInputs = 0;
  let ascending = true;
  let last = -1;
  for (let j = 0; j < kept.length; j++) {
    const k = kept[j]!;
    if (k !== j) inOrder = false;
    if (k === null) continue;
    keptInputs += 1;
    if (k <= last) ascending = false;
    last = k;
  }
  const dropped = new Array<number>(inputs - keptInputs);
  let d = 0;
  if (ascending) {
    let next = 0;
    for (let j = 0; j < kept.length; j++) {
      const k = kept[j]!;
      if (k === null) continue;
      while (next < k) dropped[d++] = next++;
      next = k + 1;
    }
    while (next < inputs) dropped[d++] = next++;
  } else {
    const isKept = new Uint8Array(inputs);
    for (const k of kept) if (k !== null) isKept[k] = 1;
    for (let i = 0; i < inputs; i++) if (isKept[i] === 0) dropped[d++] = i;
  }
  return { dropped, inOrder };
}

/**
 * Compaction in one pass, so it always terminates:
 * 1. within budget: nothing to do;
 * 2. tail walk: keep the leading system messages and everything from the last real user message on
 *    (the live turn and its tool loop, whose reasoning must-echo routes need), then walk back from
 *    there keeping whole messages while they fit; the head before them becomes one new checkpoint;
 *    a kept part never starts with a tool result whose call was cut off;
 * 3. shadowed checkpoints (an older one before the last user message) are dropped;
 * 4. still over: the salvage pass; still over after that: 'over-budget' with the reason.
 * Kept messages are the SAME objects as the input (salvage copies only tool outputs it clears), so
 * every retained carrier is byte-identical. The input is never modified.
 */
export function compress(history: History, budget: number, options: CompressOptions = {}): CompactionResult {
  const messages = history.messages;
  const price = (m: Message) => priceMessage(m, options.policy, options.omit);
  // Each input message is priced once, into a typed array (off the collected heap: on a 100k-turn
  // history a boxed array of prices was copied by every scavenge); a candidate is priced through
  // `kept` (no lookups by object, which cost a cache miss per message on a large history).
  // The same pass notes each message's kind, so nothing after it walks the message objects again
  // (a 100k-turn history is ~30 MB: a second and third walk missed the CPU cache every time).
  const prices = new Float64Array(messages.length);
  const kinds = new Uint8Array(messages.length);
  // The newest message holding a provider's compaction carrier: never summarized (server-compaction-floor.ts).
  let floor = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    prices[i] = price(m);
    kinds[i] = kindOf(m);
    if (holdsServerCompaction(m)) floor = i;
  }
  const estimateBefore = sumRange(prices);
  const base = { budget, estimateBefore, salvaged: false };
  if (estimateBefore <= budget) {
    return {
      ...base,
      status: 'unchanged',
      changed: false,
      history,
      kept: identity(messages.length),
      estimateAfter: estimateBefore,
      dropped: [],
    };
  }

  let prefixEnd = 0;
  while (prefixEnd < messages.length && kinds[prefixEnd] === SYSTEM) prefixEnd++;
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && kinds[lastUser] !== USER) lastUser--;
  const liveStart = lastUser >= prefixEnd ? lastUser : messages.length;

  const summaryTokens = options.summaryTokens ?? Math.min(512, Math.max(16, Math.floor(budget / 10)));
  const maxSummaryChars = Math.max(0, (summaryTokens - MESSAGE_OVERHEAD_TOKENS) * 4 - CHECKPOINT_MARKER.length);
  const fixed = sumRange(prices, 0, prefixEnd) + sumRange(prices, liveStart);
  const room = budget - fixed - summaryTokens;

  let cut = liveStart;
  let used = 0;
  for (let i = liveStart - 1; i >= prefixEnd; i--) {
    if (used + prices[i]! > room) break;
    used += prices[i]!;
    cut = i;
  }
  while (cut < liveStart && kinds[cut] === TOOL) cut++;
  // A provider's compaction carrier is never summarized away: the kept part starts at it at the latest
  // (server-compaction-floor.ts). Whatever that costs is the salvage pass's, or 'over-budget'.
  if (floor >= prefixEnd && floor < cut) {
    cut = floor;
    // Its tool results stay with it; a tool result whose call went into the summary cannot lead the kept part.
    while (cut < liveStart && kinds[cut] === TOOL) cut++;
  }

  // A head of nothing but checkpoints is already a summary: re-summarizing it would only add a header.
  let headIsCheckpoints = true;
  for (let i = prefixEnd; i < cut && headIsCheckpoints; i++) headIsCheckpoints = kinds[i] === CHECKPOINT;
  if (headIsCheckpoints) cut = prefixEnd;
  // The candidate: prefix, new checkpoint, tail. Its arrays are allocated once at their final
  // length. Grown by push, a 50k-element array is copied at each step of 1.5x and every copy past
  // 128 KB is a fresh large-object allocation whose pages the kernel faults in one by one: at 100k
  // turns that was ~750 page faults and a third of compaction's CPU, as system time (decision 0030).
  const summarized = cut > prefixEnd;
  const length = prefixEnd + (summarized ? 1 : 0) + (messages.length - cut);
  // `out` is the input's last `length` messages copied in one slice (no holes to fill, no store per message), its head
  // then overwritten with the prefix and the checkpoint: the slice starts `head` messages before the cut, and the
  // head is never longer than what precedes the cut.
  const head = prefixEnd + (summarized ? 1 : 0);
  let out: Message[] = messages.slice(cut - head);
  let kept: (number | null)[] = new Array<number | null>(length);
  let j = 0;
  for (; j < prefixEnd; j++) {
    out[j] = messages[j]!;
    kept[j] = j;
  }
  if (summarized) {
    // The built-in summary reads the head in place; only a plug-in summarizer gets a copy of it.
    const written = options.summarize
      ? options.summarize(messages.slice(prefixEnd, cut), maxSummaryChars)
      : writeExtractiveSummary(messages, maxSummaryChars, countKinds(kinds, prefixEnd, cut), prefixEnd, cut);
    out[j] = makeCheckpoint(written.slice(0, maxSummaryChars));
    kept[j] = null;
    j++;
  }
  for (let i = cut; i < messages.length; i++, j++) kept[j] = i;
  // The candidate's price from the ranges it keeps, not by walking `kept` (at 100k turns a walk of ~50k indices
  // into ~800 KB of prices missed the cache at every step): prefix + checkpoint + tail, less the shadowed.
  // Prices are whole tokens, so the sum is exact in any order.
  let estimateAfter =
    sumRange(prices, 0, prefixEnd) + (summarized ? price(out[prefixEnd]!) : 0) + sumRange(prices, cut);
  const shadowed = new Set(shadowedAmong(kept, kinds));
  if (shadowed.size > 0) {
    for (const j of shadowed) estimateAfter -= kept[j] === null ? price(out[j]!) : prices[kept[j]!]!;
    kept = kept.filter((_, i) => !shadowed.has(i));
    out = out.filter((_, i) => !shadowed.has(i));
  }
  // Compaction must never grow a history (a second pass would grow it again: the seed's loop).
  if (estimateAfter >= estimateBefore) {
    out = messages.slice();
    kept = identity(messages.length);
    estimateAfter = estimateBefore;
  }

  let salvaged = false;
  if (estimateAfter > budget) {
    const rescue = salvage(out, price, maxSummaryChars);
    if (rescue) {
      kept = rescue.from.map((i) => kept[i]!);
      out = rescue.messages;
      estimateAfter = 0;
      for (const m of out) estimateAfter += price(m);
      salvaged = true;
    }
  }
  const { dropped, inOrder } = droppedInputs(kept, messages.length);
  const changed = salvaged || !inOrder;
  const result: CompactionResult = {
    ...base,
    status: estimateAfter <= budget ? 'compacted' : 'over-budget',
    changed,
    history: changed ? { messages: out } : history,
    kept,
    estimateAfter,
    dropped,
    salvaged,
  };
  if (estimateAfter > budget) {
    result.reason =
      `the system prompt and the live turn (from the last user message on, ${messages.length - liveStart} messages) price at ` +
      `${fixed} tokens; after compaction${salvaged ? ' and salvage' : ''} the history needs ${estimateAfter} > budget ${budget}. ` +
      'Those messages are never dropped (the live tool loop and its reasoning must be replayed); raise the budget or start a new turn.';
  }
  return result;
}
