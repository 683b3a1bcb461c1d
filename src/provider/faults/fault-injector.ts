import { createHash } from 'node:crypto';
import { faultApplies, type Fault, type CutPoint } from '../../shared/faults/fault-catalogue.js';
import type { InjectedFault, IssuedCarriers } from '../../shared/faults/fault-record.js';
import { carrierValues } from '../../shared/faults/carrier-values.js';
import type { RenderedAnswer } from '../answers/answer-renderer.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { STREAM_READERS, type EventAnatomy } from './stream-anatomy.js';
import { endsWithToolResult } from './tool-result-turn.js';

/** The request a mock is about to answer, as the injector needs it. */
export interface FaultContext {
  /** The provider spec's id and wire family. */
  provider: string;
  family: FamilyId;
  body: unknown;
  stream: boolean;
}

/** An answer in place of the provider's: an error status with its headers and body. */
export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  record: InjectedFault;
}

/**
 * The provider's answer, changed by a fault: events to send. When `cut`, the answer stops short of its end: the
 * connection is dropped after them, unless `endsCleanly` (the body then ends in good order, its closing events missing).
 */
export interface FaultedAnswer {
  rendered: RenderedAnswer;
  cut: boolean;
  endsCleanly?: boolean;
  record: InjectedFault;
}

/** A 32-bit number from the run's seed and what it is for: same seed, same fault, same bytes. */
export function seeded(seed: number, ...what: string[]): number {
  return createHash('sha256')
    .update([String(seed), ...what].join('\u0000'))
    .digest()
    .readUInt32BE(0);
}

const appliesTo = (fault: Fault, ctx: FaultContext) => faultApplies(fault, ctx.family, ctx.provider);

/**
 * Injects named faults into the mocks' answers, each once per injector (one `serve`, one `run`), at the first answer
 * it can apply to: a stream with a reasoning block for a cut, the request carrying tool results for an error status,
 * a signed answer for an upstream switch or a model fallback. Where in a block a stream is cut, and where a signature
 * is split, follow from the seed.
 */
export class FaultInjector {
  private readonly fired = new Set<string>();

  constructor(
    readonly faults: readonly Fault[],
    readonly seed = 0,
  ) {}

  /** Names of the faults not injected yet (a run reports them as never reached). */
  pending(): string[] {
    return this.faults.filter((f) => !this.fired.has(f.name)).map((f) => f.name);
  }

  /** An error status that answers this request instead of the provider, if a fault is due here. */
  answerInstead(ctx: FaultContext): FaultAnswer | undefined {
    for (const fault of this.faults) {
      const inject = fault.inject;
      if (inject.kind !== 'http-error' || this.fired.has(fault.name) || !appliesTo(fault, ctx)) continue;
      if (!endsWithToolResult(ctx.family, ctx.body)) continue;
      this.fired.add(fault.name);
      const body = inject.bodies[ctx.family] ?? inject.bodies['*'];
      const retryAfter = inject.headers['retry-after'];
      const record: InjectedFault = {
        name: fault.name,
        unfinished: [],
        foreign: [],
        where: `answered ${inject.status} in place of the tool-result turn`,
        ...(retryAfter !== undefined && /^\d+$/.test(retryAfter) ? { retryAfterMs: Number(retryAfter) * 1000 } : {}),
      };
      return { status: inject.status, headers: { ...inject.headers }, body, record };
    }
    return undefined;
  }

  /** The answer as a due fault changes it: a stream cut inside its reasoning, re-signed by another upstream, or named by a fallback model. */
  shape(ctx: FaultContext, rendered: RenderedAnswer): FaultedAnswer | undefined {
    for (const fault of this.faults) {
      if (this.fired.has(fault.name) || !appliesTo(fault, ctx)) continue;
      const made = this.apply(fault, ctx, rendered);
      if (made) {
        this.fired.add(fault.name);
        return made;
      }
    }
    return undefined;
  }

  private apply(fault: Fault, ctx: FaultContext, rendered: RenderedAnswer): FaultedAnswer | undefined {
    const inject = fault.inject;
    if (inject.kind === 'stream-cut') {
      const cut = ctx.stream ? this.cut(fault, inject.at, ctx, rendered) : undefined;
      if (!cut || inject.ends !== 'clean-end') return cut;
      return {
        ...cut,
        endsCleanly: true,
        record: { ...cut.record, where: `${cut.record.where}; the body then ended cleanly` },
      };
    }
    if (inject.kind === 'upstream-switch') return foreignSigned(fault, rendered);
    if (inject.kind === 'bound-block-dropped') return boundBlockDropped(fault, ctx, rendered);
    if (inject.kind === 'model-fallback') {
      const model = inject.models[ctx.family];
      return model ? fallbackModel(fault, model, rendered) : undefined;
    }
    return undefined;
  }

  private cut(fault: Fault, at: CutPoint, ctx: FaultContext, rendered: RenderedAnswer): FaultedAnswer | undefined {
    const reader = STREAM_READERS[ctx.family];
    if (!reader) return undefined;
    const events = rendered.stream;
    const anatomy = reader.read(events);
    const index = (role: EventAnatomy['role']) => anatomy.findIndex((a) => a.role === role);
    const thinking = anatomy.flatMap((a, i) => (a.role === 'thinking' ? [i] : []));
    const sig = index('signature');
    const partialCopies = anatomy.flatMap((a) => (a.partialSignature ? [a.partialSignature] : []));
    const unfinished: InjectedFault['unfinished'] = [];
    const textUpTo = (end: number) =>
      anatomy
        .slice(0, end)
        .filter((a) => a.role === 'thinking')
        .map((a) => a.text ?? '')
        .join('');
    let kept: SseEvent[];
    let where: string;
    if (at === 'before-signature') {
      if (sig < 0 || thinking.length === 0 || thinking.at(-1)! > sig) return undefined;
      // After 1..n of the block's text pieces, the signature not yet sent.
      const before = thinking.filter((i) => i < sig);
      const n = 1 + (seeded(this.seed, fault.name, 'pieces') % before.length);
      const end = before[n - 1]! + 1;
      kept = events.slice(0, end);
      unfinished.push({ value: textUpTo(end), what: 'partial-thinking' });
      where = `cut after ${n} of ${before.length} reasoning text pieces, before the signature`;
    } else if (at === 'mid-signature') {
      if (ctx.family === 'openai-responses') {
        // The item's added copy of encrypted_content is all the client holds until output_item.done.
        if (sig < 0 || partialCopies.length === 0) return undefined;
        kept = events.slice(0, sig);
        for (const value of partialCopies) unfinished.push({ value, what: 'truncated-signature' });
        if (thinking.length > 0) unfinished.push({ value: textUpTo(sig), what: 'partial-thinking' });
        where = 'cut before the reasoning item’s response.output_item.done';
      } else {
        const whole = sig < 0 ? undefined : anatomy[sig]!.signature;
        if (whole === undefined || whole.length < 2) return undefined;
        const split = 1 + (seeded(this.seed, fault.name, 'split') % (whole.length - 1));
        // The signature in two deltas, as providers may send it; the connection drops after the first.
        kept = [...events.slice(0, sig), reader.withSignature(events[sig]!, whole.slice(0, split))];
        unfinished.push({ value: whole.slice(0, split), what: 'truncated-signature' });
        where = `cut after ${split} of the signature’s ${whole.length} characters`;
      }
    } else if (at === 'after-signature') {
      if (sig < 0) return undefined;
      const whole = anatomy[sig]!.signature!;
      if (sig === events.length - 1) {
        if (!reader.unfinished) return undefined;
        kept = [...events.slice(0, sig), reader.unfinished(events[sig]!)];
      } else kept = events.slice(0, sig + 1);
      // Responses seals an item at its output_item.done: that blob is whole and may be kept.
      if (ctx.family !== 'openai-responses' && ctx.family !== 'gemini')
        unfinished.push({ value: whole, what: 'unfinished-signature' });
      for (const value of partialCopies) unfinished.push({ value, what: 'truncated-signature' });
      where = 'cut after the signature, before the reasoning block’s stop';
    } else {
      const tool = anatomy.findIndex((a) => a.role === 'tool-start' || a.toolStart);
      // The reasoning before the call: its text, its stop or its whole item.
      const reasoned = anatomy.slice(0, Math.max(tool, 0)).some((a) => a.role !== 'other');
      if (tool < 0 || !reasoned) return undefined;
      kept = events.slice(0, tool);
      for (const value of partialCopies) unfinished.push({ value, what: 'truncated-signature' });
      where = 'cut after the reasoning, before the tool call started';
    }
    return {
      rendered: { body: rendered.body, stream: kept },
      cut: true,
      record: { name: fault.name, unfinished: unfinished.filter((u) => u.value !== ''), foreign: [], where },
    };
  }
}

/** Each signature of the answer replaced by one another upstream minted (same length, never valid here). */
function foreignSigned(fault: Fault, rendered: RenderedAnswer): FaultedAnswer | undefined {
  const own = [...new Set(carrierValues(rendered.body).signatures)];
  if (own.length === 0) return undefined;
  const foreign = new Map(own.map((s) => [s, foreignSignature(s)]));
  const swap = (text: string) => {
    let out = text;
    for (const [from, to] of foreign) out = out.split(from).join(to);
    return out;
  };
  return {
    rendered: {
      body: JSON.parse(swap(JSON.stringify(rendered.body))) as unknown,
      stream: rendered.stream.map((e) => ({ ...e, data: swap(e.data) })),
    },
    cut: false,
    record: { name: fault.name, unfinished: [], foreign: [...foreign.values()], where: 'answered by another upstream' },
  };
}

/**
 * The answer as a provider that dropped a bound thinking block gives it (Claude's binding check under
 * prefix_mismatch_behavior drop_block): the first replayed thinking block of the newest earlier assistant turn, with
 * the rest of that turn's consecutive thinking, listed in input_transformations as thinking_dropped
 * (prefix_binding_mismatch), in the body and in message_start, where the SDK types say the array is final.
 */
function boundBlockDropped(fault: Fault, ctx: FaultContext, rendered: RenderedAnswer): FaultedAnswer | undefined {
  if (!isPlainObject(ctx.body) || !Array.isArray(ctx.body.messages) || !isPlainObject(rendered.body)) return undefined;
  const messages = ctx.body.messages as unknown[];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (!isPlainObject(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const blocks = message.content as unknown[];
    const first = blocks.findIndex((b) => isPlainObject(b) && b.type === 'thinking' && typeof b.signature === 'string');
    if (first < 0) continue;
    const dropped: Array<{ path: string; signature: string }> = [];
    for (let at = first; at < blocks.length; at++) {
      const block = blocks[at];
      if (!isPlainObject(block) || block.type !== 'thinking') break;
      if (typeof block.signature === 'string')
        dropped.push({ path: `messages.${index}.content.${at}`, signature: block.signature });
    }
    const transformations = dropped.map((d) => ({
      type: 'thinking_dropped',
      path: d.path,
      reason: 'prefix_binding_mismatch',
    }));
    const report = (body: Record<string, unknown>) => ({ ...body, input_transformations: transformations });
    return {
      rendered: {
        body: report(rendered.body),
        stream: rendered.stream.map((e) => {
          if (e.event !== 'message_start') return e;
          const start = JSON.parse(e.data) as Record<string, unknown>;
          return isPlainObject(start.message)
            ? { ...e, data: JSON.stringify({ ...start, message: report(start.message) }) }
            : e;
        }),
      },
      cut: false,
      record: {
        name: fault.name,
        unfinished: [],
        foreign: [],
        dropped: dropped.map((d) => d.signature),
        where: `reported ${dropped.map((d) => d.path).join(', ')} dropped (thinking_dropped)`,
      },
    };
  }
  return undefined;
}

/** A signature of the same length and alphabet that the mock's own signer never issued. */
export function foreignSignature(signature: string): string {
  let out = '';
  for (let i = 0; out.length < signature.length; i++)
    out += createHash('sha256').update(`another upstream\u0000${i}\u0000${signature}`).digest('base64');
  return out.slice(0, signature.length);
}

/** The answer as the fallback model gives it: every `model` it names is the fallback's. */
function fallbackModel(fault: Fault, model: string, rendered: RenderedAnswer): FaultedAnswer | undefined {
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'model' && typeof v === 'string' ? model : rename(v)]),
    );
  };
  if (carrierValues(rendered.body).signatures.length === 0) return undefined;
  return {
    rendered: {
      body: rename(rendered.body),
      stream: rendered.stream.map((e) => {
        try {
          return { ...e, data: JSON.stringify(rename(JSON.parse(e.data))) };
        } catch {
          return e;
        }
      }),
    },
    cut: false,
    record: { name: fault.name, unfinished: [], foreign: [], model, where: `answered as ${model}` },
  };
}

/** What a finished answer issued: the carriers a later request replaying its turn must still hold. */
export function issuedCarriers(rendered: RenderedAnswer): IssuedCarriers {
  const values = carrierValues(rendered.body);
  return {
    signatures: [...new Set(values.signatures)],
    callIds: [...new Set(values.callIds)],
    texts: values.blocks.flatMap((b) => (b.text ? [b.text] : [])),
  };
}
