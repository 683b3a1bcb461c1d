import { PlaceholderError } from '../../../shared/errors/placeholder-error.js';
import { mockOpaque, type OpaqueSigner } from '../../../provider/signing/mock-opaque.js';
import {
  mockEncryptedContent,
  mockPairedItemId,
  organizationOf,
} from '../../../provider/signing/openai-issued-items.js';
import {
  CLAUDE_SIGNER,
  mockRedactedData,
  mockSignThinking,
  type IssuedPlace,
} from '../../../provider/signing/mock-signature.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/**
 * A real request carried real signatures, which no mock can verify. A case therefore writes each
 * signed or encrypted blob as the answer the mock itself would have issued for the same content:
 * {"$mockSignature": {"thinking": T, "ordinal"?: n, "signer"?: s, "blocks"?: b, "at"?: i}}  Claude signature of text T
 *   {"$mockRedacted": {"seed": S, "ordinal"?: n, "blocks"?: b, "at"?: i}}                    redacted_thinking data
 * (`blocks`: how many reasoning blocks the answer's message held, when more than one; `at`: the
 * block's index among the message's content blocks, when not its ordinal. A case whose client
 * dropped a block signs the blocks it kept where the answer had them.)
 *   {"$mockOpaque": {"signer": s, "kind": k, "seed": S}}              Gemini / Copilot / Responses blob
 *   {"$mockEncrypted": {"itemId": id, "seed": S, "issuer"?: p}}       Responses encrypted_content of item id,
 * issued through provider p (its OpenAI organization;
 *                                                                     default openai-responses)
 *   {"$mockItemId": {"type": "function_call"|"message", "reasoningId": rs, "ordinal"?: n}}
 * Responses fc_/msg_ id issued after reasoning item rs
 * A request that really sent a foreign or edited blob keeps a literal string (a foreign blob) or
 * signs other text than it sends (an edited block), which is what the real client did.
 */
const SIGNERS: readonly OpaqueSigner[] = ['gemini', 'vertex-gemini', 'copilot', 'openai-responses'];

function single(value: Record<string, unknown>): [string, Record<string, unknown>] | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1 || !keys[0]!.startsWith('$mock')) return undefined;
  const args = value[keys[0]!];
  if (!isPlainObject(args)) throw new PlaceholderError(`${keys[0]} takes an object`);
  return [keys[0]!, args];
}

function text(args: Record<string, unknown>, key: string, where: string): string {
  const value = args[key];
  if (typeof value !== 'string') throw new PlaceholderError(`${where} needs a string "${key}"`);
  return value;
}

function ordinal(args: Record<string, unknown>): number {
  const value = args.ordinal ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new PlaceholderError('"ordinal" must be a whole number');
  return value;
}

function wholeFrom(args: Record<string, unknown>, key: string, least: number): number | undefined {
  const value = args[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least)
    throw new PlaceholderError(`"${key}" must be a whole number from ${least}`);
  return value;
}

/**
 * Where the issuing message held the block, when not in the common place (its only reasoning block, opening the
 * message).
 */
function place(args: Record<string, unknown>): IssuedPlace {
  const blocks = wholeFrom(args, 'blocks', 1);
  const at = wholeFrom(args, 'at', 0);
  return { ...(blocks === undefined ? {} : { blocks }), ...(at === undefined ? {} : { at }) };
}

function resolveOne(kind: string, args: Record<string, unknown>): string {
  switch (kind) {
    case '$mockSignature':
      return mockSignThinking(
        text(args, 'thinking', kind),
        ordinal(args),
        typeof args.signer === 'string' ? args.signer : CLAUDE_SIGNER,
        place(args),
      );
    case '$mockRedacted':
      return mockRedactedData(text(args, 'seed', kind), ordinal(args), CLAUDE_SIGNER, place(args));
    case '$mockOpaque': {
      const signer = text(args, 'signer', kind) as OpaqueSigner;
      if (!SIGNERS.includes(signer))
        throw new PlaceholderError(`$mockOpaque signer must be one of ${SIGNERS.join(', ')}`);
      return mockOpaque(signer, text(args, 'kind', kind), text(args, 'seed', kind));
    }
    case '$mockEncrypted': {
      const issuer = args.issuer === undefined ? 'openai-responses' : text(args, 'issuer', kind);
      return mockEncryptedContent(text(args, 'itemId', kind), text(args, 'seed', kind), organizationOf(issuer));
    }
    case '$mockItemId': {
      const type = text(args, 'type', kind);
      if (type !== 'function_call' && type !== 'message')
        throw new PlaceholderError('$mockItemId type must be function_call or message');
      const reasoningId = text(args, 'reasoningId', kind);
      if (!/^rs_[0-9a-f]+$/.test(reasoningId)) throw new PlaceholderError('$mockItemId reasoningId must be rs_<hex>');
      return mockPairedItemId(type, reasoningId, ordinal(args));
    }
    default:
      throw new PlaceholderError(`unknown placeholder ${kind}`);
  }
}

/** A copy of `value` with every placeholder replaced by the blob the mock signers issue. */
export function resolvePlaceholders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolvePlaceholders);
  if (!isPlainObject(value)) return value;
  const placeholder = single(value);
  if (placeholder) return resolveOne(...placeholder);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolvePlaceholders(v)]));
}
