import { isDeepStrictEqual } from 'node:util';
import type { Message } from '../../../../shared/history/history.js';
import type { RoutePolicy } from '../../../../shared/route-table/route-table.js';
import { parseSse } from '../../../../shared/sse/parse-sse.js';
import { isPlainObject } from '../../../../shared/objects/deep-merge.js';
import { contentText } from '../../../../engine/families/content-text.js';
import type { ParsedAnswer } from '../../../../engine/families/family.js';
import { familyFor } from '../../../../engine/families/registry.js';
import { feedSplit } from '../../../../engine/families/split-stream.js';
import type { RealCase } from './real-traffic-case.js';
import { InvariantError } from '../../../../shared/errors/invariant-error.js';

type Obj = Record<string, unknown>;

/** Keys whose string values are opaque: only valid byte for byte, never rebuilt. */
const OPAQUE_KEYS = new Set([
  'signature',
  'thoughtSignature',
  'encrypted_content',
  'encrypted_index',
  'redactedContent',
]);

/** Every opaque string in a value, in document order (redacted / encrypted reasoning `data` included). */
export function opaqueStrings(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) opaqueStrings(v, out);
  else if (isPlainObject(value)) {
    const dataIsOpaque = value.type === 'redacted_thinking' || value.type === 'reasoning.encrypted';
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string' && v !== '' && (OPAQUE_KEYS.has(key) || (dataIsOpaque && key === 'data'))) out.push(v);
      else opaqueStrings(v, out);
    }
  }
  return out;
}

function isSubsequence(needles: readonly string[], hay: readonly string[]): boolean {
  let at = 0;
  for (const s of hay) if (at < needles.length && s === needles[at]) at++;
  return at === needles.length;
}

/** Reads the case once, whole: a body through fromResponse, a stream fed in one piece. */
export function readCase(c: RealCase, policy: RoutePolicy, cuts: readonly number[] = []): ParsedAnswer {
  const family = familyFor(c.family);
  if (c.kind === 'body') return family.fromResponse(c.body, policy);
  if (!family.streamCarriers) throw new InvariantError(`family ${c.family} reads no streams`);
  return feedSplit(family.streamCarriers(policy), c.sse ?? '', cuts).end();
}

/** The raw blocks / parts / items of the answer as the provider sent them (body), in order. */
function rawSequence(c: RealCase): Obj[] | undefined {
  if (c.kind !== 'body' || !isPlainObject(c.body)) return undefined;
  const b = c.body;
  if (c.family === 'anthropic-messages') return Array.isArray(b.content) ? (b.content as Obj[]) : undefined;
  if (c.family === 'gemini') {
    const cand = Array.isArray(b.candidates) && isPlainObject(b.candidates[0]) ? b.candidates[0] : {};
    return isPlainObject(cand.content) && Array.isArray(cand.content.parts) ? (cand.content.parts as Obj[]) : undefined;
  }
  if (c.family === 'openai-responses') return Array.isArray(b.output) ? (b.output as Obj[]) : undefined;
  return undefined;
}

/** Block types in stream order (Anthropic `content_block_start`, Responses `output_item.added`). */
function streamedKinds(c: RealCase): string[] {
  const kinds: string[] = [];
  for (const e of parseSse(c.sse ?? '').events) {
    let d: unknown;
    try {
      d = JSON.parse(e.data);
    } catch {
      continue;
    }
    if (!isPlainObject(d)) continue;
    if (d.type === 'content_block_start' && isPlainObject(d.content_block)) kinds.push(String(d.content_block.type));
    if (d.type === 'response.output_item.added' && isPlainObject(d.item)) kinds.push(String(d.item.type));
  }
  return kinds;
}

/** The assistant turn as this route would replay it: history [user, answer] -> the request body. */
function replayedTurn(c: RealCase, policy: RoutePolicy, message: Message): Obj[] {
  const request = familyFor(c.family).toRequest({ messages: [{ role: 'user', content: 'q' }, message] }, policy);
  const body = request.body;
  if (c.family === 'gemini') {
    const model = (body.contents as Obj[]).find((x) => x.role === 'model');
    return (model?.parts as Obj[] | undefined) ?? [];
  }
  if (c.family === 'openai-responses') return (body.input as Obj[]).slice(1);
  const turn = (body.messages as Obj[] | undefined)?.find((x) => x.role === 'assistant');
  return Array.isArray(turn?.content) ? (turn.content as Obj[]) : [];
}

/** Responses reasoning items without encrypted_content cannot be replayed statelessly (store: false). */
function replayableResponsesKinds(items: readonly Obj[]): string[] {
  const kinds: string[] = [];
  for (const item of items) {
    const type = String(item.type);
    if (type === 'reasoning' && (typeof item.encrypted_content !== 'string' || item.encrypted_content === '')) continue;
    if (type === 'message' && kinds.at(-1) === 'message') continue;
    kinds.push(type);
  }
  return kinds;
}

/** A stream's `response.completed` body, when the stream has one. */
function completedBody(c: RealCase): unknown {
  for (const e of parseSse(c.sse ?? '').events.reverse()) {
    try {
      const d = JSON.parse(e.data);
      if (isPlainObject(d) && d.type === 'response.completed') return d.response;
    } catch {
      /* not JSON */
    }
  }
  return undefined;
}

/**
 * Replaces each encrypted blob the capture lists as acceptable for its item with one marker, and
 * (where the surface rotates item ids on every event) each reasoning item id with its position.
 */
function normalizeEncrypted(answer: ParsedAnswer, acceptable: Obj, rotate = false): unknown {
  const ids: string[] = [];
  return JSON.parse(JSON.stringify(answer), (_k, v: unknown) => {
    if (isPlainObject(v) && v.type === 'reasoning.encrypted' && typeof v.id === 'string') {
      const ok = acceptable[v.id];
      if (Array.isArray(ok) && ok.includes(v.data)) v = { ...v, data: '<acceptable>' };
    }
    if (
      rotate &&
      isPlainObject(v) &&
      typeof v.type === 'string' &&
      v.type.startsWith('reasoning.') &&
      typeof v.id === 'string'
    ) {
      if (!ids.includes(v.id)) ids.push(v.id);
      return { ...v, id: `item-${ids.indexOf(v.id)}` };
    }
    return v;
  });
}

/**
 * What is wrong with reading this case, per the corpus README: empty when it passes. Each line
 * names one broken promise (a lost or reordered signature, an invented one, text or a tool call
 * changed, a part out of place, stream and body disagreeing).
 */
export function realCaseProblems(c: RealCase, policy: RoutePolicy): string[] {
  const problems: string[] = [];
  let answer: ParsedAnswer;
  try {
    answer = readCase(c, policy);
  } catch (error) {
    return [`cannot be read: ${(error as Error).message}`];
  }
  const m = answer.message;
  const x = c.expect;
  const raw = c.kind === 'body' ? JSON.stringify(c.body) : (c.sse ?? '');

  // Opaque strings: every one the capture holds is kept, in order; none is made up.
  const got = opaqueStrings(m);
  const expected: string[] = [];
  for (const item of (x.anthropicItems as Obj[] | undefined) ?? [])
    expected.push(String(item.signature ?? item.data ?? ''));
  for (const item of (x.signed as Obj[] | undefined) ?? []) expected.push(String(item.thoughtSignature));
  const acceptable = isPlainObject(x.acceptableEncrypted) ? x.acceptableEncrypted : {};
  for (const item of (x.responsesItems as Obj[] | undefined) ?? []) {
    if (typeof item.encrypted === 'string') {
      const ok = acceptable[String(item.id)];
      const kept = Array.isArray(ok) ? got.find((s) => ok.includes(s)) : item.encrypted;
      expected.push(kept ?? item.encrypted);
    }
  }
  const wanted = expected.filter((s) => s !== '');
  if (!isSubsequence(wanted, got))
    problems.push(`opaque strings lost or reordered: kept ${got.length}, expected ${wanted.length} in order`);
  const invented = got.filter((s) => !raw.includes(s) && !raw.includes(JSON.stringify(s).slice(1, -1)));
  if (invented.length > 0) problems.push(`${invented.length} opaque string(s) not in the capture (invented)`);

  // Text, readable reasoning, tool calls.
  if ('content' in x && contentText(m.content) !== (x.content ?? '')) problems.push('content text differs');
  if (typeof x.reasoning_content === 'string' && m.reasoning_content !== x.reasoning_content)
    problems.push('reasoning_content differs');
  if (typeof x.reasoning === 'string' && m.reasoning !== x.reasoning) problems.push('reasoning differs');
  if (typeof x.thoughts === 'string' && (m.reasoning ?? '') !== x.thoughts) problems.push('thought text differs');
  if (Array.isArray(x.anthropicItems)) {
    const items = (m.reasoning_details ?? []).filter((d) => d.type === 'thinking' || d.type === 'redacted_thinking');
    if (!isDeepStrictEqual(items, x.anthropicItems)) problems.push('thinking blocks differ');
  }
  const calls = m.tool_calls ?? [];
  if (Array.isArray(x.toolCallsRaw)) {
    const mine = calls.map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments }));
    if (!isDeepStrictEqual(mine, x.toolCallsRaw)) problems.push('tool calls differ');
  }
  if (Array.isArray(x.toolCalls)) {
    const mine = calls.map((t) => ({
      name: t.function.name,
      args: JSON.parse(t.function.arguments || '{}') as unknown,
    }));
    const theirs = (x.toolCalls as Obj[]).map((t) => ({ name: t.name, args: t.args ?? t.input ?? {} }));
    if (!isDeepStrictEqual(mine, theirs)) problems.push('tool calls differ');
  }
  if (isPlainObject(x.fcIds) && Object.keys(x.fcIds).length > 0) {
    const native = m.native?.fields.function_call_ids;
    if (!isDeepStrictEqual(native, x.fcIds)) problems.push('fc_ item ids not kept');
  }
  for (const item of (x.responsesItems as Obj[] | undefined) ?? []) {
    const summaries = (m.reasoning_details ?? [])
      .filter((d) => d.type === 'reasoning.summary' && d.id === item.id)
      .map((d) => d.summary);
    if (!isDeepStrictEqual(summaries, item.summaries)) problems.push(`summaries of ${String(item.id)} differ`);
  }

  // Positions: the route replays the turn with every part where it came, unfamiliar ones included.
  let replayed: Obj[] = [];
  try {
    replayed = replayedTurn(c, policy, m);
  } catch (error) {
    problems.push(`cannot be replayed: ${(error as Error).message}`);
  }
  const sent = replayed.map((b) => String(b.type ?? Object.keys(b)[0]));
  const rawParts = rawSequence(c);
  if (c.family === 'anthropic-messages') {
    const original = rawParts ? rawParts.map((b) => String(b.type)) : streamedKinds(c);
    // An empty text block is not replayable (Anthropic refuses it) and carries nothing.
    const keep = (kinds: string[], blocks: Obj[] | undefined) =>
      kinds.filter((k, i) => !(k === 'text' && blocks && blocks[i]?.text === ''));
    if (!isDeepStrictEqual(sent, keep(original, rawParts)))
      problems.push(`blocks replayed as [${sent.join(',')}], came as [${original.join(',')}]`);
    if (rawParts) {
      const unfamiliar = rawParts.filter(
        (b) => !['text', 'thinking', 'redacted_thinking', 'tool_use'].includes(String(b.type)),
      );
      const back = replayed.filter(
        (b) => !['text', 'thinking', 'redacted_thinking', 'tool_use'].includes(String(b.type)),
      );
      if (!isDeepStrictEqual(back, unfamiliar)) problems.push('server tool blocks not replayed verbatim');
    }
  }
  if (c.family === 'gemini') {
    if (rawParts && !isDeepStrictEqual(replayed, rawParts)) problems.push('model parts not replayed as they came');
    if (replayed.some((p) => p.text === '' && p.thoughtSignature === undefined))
      problems.push('an unsigned empty text part is replayed (not in the answer)');
    const textParts = replayed.filter((p) => typeof p.text === 'string' && p.thought !== true);
    if (
      textParts.length > 1 &&
      x.signed &&
      (x.signed as Obj[]).filter((s) => s.kind === 'text').length < textParts.length
    ) {
      problems.push(`visible text split into ${textParts.length} parts`);
    }
  }
  if (c.family === 'openai-responses') {
    const original = rawParts ?? (completedBody(c) as Obj | undefined)?.output;
    if (Array.isArray(original)) {
      const want = replayableResponsesKinds(original as Obj[]);
      if (!isDeepStrictEqual(replayableResponsesKinds(replayed), want))
        problems.push(`items replayed as [${sent.join(',')}], came as [${want.join(',')}]`);
    }
  }

  // A stream equals the body it completed with.
  if (c.kind === 'stream' && x.completedBody === true) {
    const body = completedBody(c);
    try {
      const unstreamed = familyFor(c.family).fromResponse(body, policy);
      const rotate = c.itemIdsRotate === true;
      if (
        !isDeepStrictEqual(
          normalizeEncrypted(answer, acceptable, rotate),
          normalizeEncrypted(unstreamed, acceptable, rotate),
        )
      )
        problems.push('stream and completed body give different records');
    } catch (error) {
      problems.push(`completed body cannot be read: ${(error as Error).message}`);
    }
  }
  return problems;
}
