import type { History, Message } from '../../shared/history/history.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/** Why a stored carrier can never replay. */
export type PoisonKind = 'empty-signature' | 'truncated-signature' | 'oversized-signature' | 'foreign-upstream';

/** One stored carrier that no provider will take back, named with its turn and the safe repair. */
export interface PoisonedCarrier {
  /** 1-based position of the message in the history (the turn `sessions show` prints). */
  turn: number;
  /** JSON pointer of the carrier in the history. */
  pointer: string;
  kind: PoisonKind;
  detail: string;
  repair: string;
  source: string;
}

/**
 * Legitimate Anthropic signatures seen from about 300 to 4,300 characters; corrupted ones written by an agent ran
 * from 8,252 to 134,520 (openclaw/openclaw#91983). A signature longer than this is not one Claude issued.
 */
export const OVERSIZED_SIGNATURE_CHARS = 8_000;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The reasoning_details formats of OpenRouter's upstreams, and the model ids each one serves. */
const FORMAT_MODELS: Record<string, RegExp> = {
  'anthropic-claude-v1': /claude|anthropic/i,
  'google-gemini-v1': /gemini|google/i,
  'openai-responses-v1': /(^|\/)(gpt|o\d|codex)|openai/i,
};

const REPAIR = {
  drop: 'drop this reasoning block from the turn before replaying (the turn keeps its text and tool calls); never resend it as it is',
  text: 'send the block without its signature, its text as plain text, or drop it; an empty signature is never valid',
  foreign: 'drop this item when replaying to a model of another upstream; keep it for its own',
  gemini:
    "replace it with Gemini's documented stand-in signature on the function call (docs/decisions/0006), or drop the call's signature field",
};

function signatureProblem(value: string): { kind: PoisonKind; detail: string; source: string } | undefined {
  if (value === '')
    return {
      kind: 'empty-signature',
      detail: 'an empty signature (left by a stream interrupted mid-thinking)',
      source: 'https://github.com/pydantic/pydantic-ai/issues/7597',
    };
  if (value.includes('…') || value.includes('...'))
    return {
      kind: 'truncated-signature',
      detail: 'a signature holding an ellipsis (shortened when stored)',
      source: 'https://github.com/openclaw/openclaw/pull/82995',
    };
  if (BASE64.test(value) && value.length % 4 !== 0)
    return {
      kind: 'truncated-signature',
      detail: `a base64 signature of ${value.length} characters, not a multiple of 4: cut short`,
      source: 'https://github.com/openclaw/openclaw/pull/82995',
    };
  if (value.length > OVERSIZED_SIGNATURE_CHARS)
    return {
      kind: 'oversized-signature',
      detail: `a signature of ${value.length} characters, beyond any Claude issued`,
      source: 'https://github.com/openclaw/openclaw/issues/91983',
    };
  return undefined;
}

function checkMessage(message: Message, i: number, model: string | undefined, out: PoisonedCarrier[]): void {
  const turn = i + 1;
  (message.reasoning_details ?? []).forEach((detail, j) => {
    const at = `/messages/${i}/reasoning_details/${j}`;
    const record = detail as Record<string, unknown>;
    for (const key of ['signature', 'data'] as const) {
      const value = record[key];
      if (typeof value !== 'string') continue;
      if (key === 'data' && detail.type !== 'reasoning.encrypted' && detail.type !== 'redacted_thinking') continue;
      const problem = signatureProblem(value);
      // An oversized blob is only judged where it is Claude's signature; other upstreams' blobs run longer.
      if (!problem || (problem.kind === 'oversized-signature' && !isClaudeSigned(detail.type, record.format))) continue;
      out.push({
        turn,
        pointer: `${at}/${key}`,
        ...problem,
        repair: problem.kind === 'empty-signature' ? REPAIR.text : REPAIR.drop,
      });
    }
    const format = typeof record.format === 'string' ? record.format : undefined;
    const serves = format === undefined ? undefined : FORMAT_MODELS[format];
    if (model !== undefined && serves && !serves.test(model))
      out.push({
        turn,
        pointer: `${at}/format`,
        kind: 'foreign-upstream',
        detail: `an item of format ${format} (another upstream's) in a session replayed to ${model}`,
        repair: REPAIR.foreign,
        source: 'https://github.com/OpenRouterTeam/ai-sdk-provider/issues/491',
      });
  });
  if (message.native) walkNative(message.native.fields, `/messages/${i}/native/fields`, turn, out);
}

const isClaudeSigned = (type: string, format: unknown) =>
  type === 'thinking' || type === 'redacted_thinking' || format === 'anthropic-claude-v1';

/** Native records (Gemini thoughtSignature, Copilot reasoning_opaque): every signature-like string in them. */
function walkNative(value: unknown, at: string, turn: number, out: PoisonedCarrier[]): void {
  if (Array.isArray(value)) return value.forEach((v, k) => walkNative(v, `${at}/${k}`, turn, out));
  if (!isPlainObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const here = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (typeof v === 'string' && /signature|opaque/i.test(key)) {
      const problem = signatureProblem(v);
      if (problem && problem.kind !== 'oversized-signature')
        out.push({ turn, pointer: here, ...problem, repair: /thought/i.test(key) ? REPAIR.gemini : REPAIR.drop });
    } else walkNative(v, here, turn, out);
  }
}

/**
 * The stored carriers of a history that can never replay: empty signatures, signatures cut short or grown beyond any
 * a provider issues, and (given the model it is replayed to) reasoning items another upstream issued. Each is named
 * with its turn, its JSON pointer and the safe repair. A signature cut at a multiple of four characters cannot be told
 * from a whole one offline: only the provider's refusal shows it (then strip and retry once).
 */
export function findPoisonedCarriers(history: History, options: { model?: string } = {}): PoisonedCarrier[] {
  const out: PoisonedCarrier[] = [];
  history.messages.forEach((m, i) => {
    if (m.role === 'assistant') checkMessage(m, i, options.model, out);
  });
  return out;
}
