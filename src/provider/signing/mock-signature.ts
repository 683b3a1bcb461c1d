import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { InvariantError } from '../../shared/errors/invariant-error.js';

/**
 * Signatures the mocks issue and check. Real providers sign thinking so that a block replayed with
 * one byte changed, reordered, rebuilt from text or taken from another model is refused; an HMAC
 * with a key only the mock knows gives the same property offline. The ordinal (position among the
 * reasoning blocks of one assistant message) is inside the MAC so reordering two valid blocks fails
 * too (Anthropic: "you can't rearrange or modify the sequence of these blocks").
 *
 * The key is per signer, not per endpoint: Claude on Anthropic, Bedrock, Vertex and Foundry (and
 * Claude reached through OpenRouter) share one signer, because Anthropic states its signatures are
 * valid across those platforms. That statement is taken from Anthropic's extended-thinking docs as
 * remembered, not re-fetched in this project; if it proves wrong, give each surface its own signer.
 */
export const CLAUDE_SIGNER = 'anthropic-claude';

function keyFor(signer: string): Buffer {
  return createHash('sha256').update(`reasoning-replay mock signing key\u0000${signer}`).digest();
}

function mac(signer: string, parts: string[]): Buffer {
  return createHmac('sha256', keyFor(signer)).update(parts.join('\u0000')).digest();
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const DIGEST_BYTES = 32;
const TAG_BYTES = 16;

/** The tag that marks a digest as issued by this signer (so a signature can be told authentic apart from matching). */
function issueTag(signer: string, digest: Buffer): Buffer {
  return mac(signer, ['issued', digest.toString('hex')]).subarray(0, TAG_BYTES);
}

/**
 * Where in its message Claude issued a reasoning block, beyond its ordinal among the reasoning
 * blocks: `blocks`, how many reasoning blocks the message held, and `at`, the block's index among
 * all the message's content blocks. A real signature lets Claude see a change of either while the
 * blocks left are intact: a redacted block dropped after an intact thinking block
 * (BerriAI/litellm#25375), an empty text block dropped between two reasoning blocks
 * (vercel/ai#14070: the second one then "cannot be modified"). So the mock binds them too.
 */
export interface IssuedPlace {
  /** Reasoning blocks in the issuing message; 1 or absent: this was the only one. */
  blocks?: number;
  /** Content index of the block; absent: equal to its ordinal (the reasoning came first). */
  at?: number;
}

/**
 * What a digest covers. The common case, a message whose only reasoning block opens it, keeps the
 * original form, so every signature issued before places were bound, and every single-block
 * answer the mocks render, stays the same (no fixture churn). Each bound part is written only
 * when it differs from that case, so one place has one spelling.
 */
function coverage(kind: 'thinking' | 'redacted', ordinal: number, content: string, place: IssuedPlace): string[] {
  const parts = [kind, String(ordinal), content];
  if (place.blocks !== undefined && place.blocks !== 1) parts.push(`of ${place.blocks}`);
  if (place.at !== undefined && place.at !== ordinal) parts.push(`at ${place.at}`);
  return parts;
}

/** Bytes that say, in clear, where a bound block was issued: ordinal, blocks, at (u16 each). */
const WHERE_BYTES = 6;
/** Length of a blob in the common place; a bound blob carries WHERE_BYTES more. */
const BLOB_BYTES = 48;

/** Where a block was issued: its ordinal and place. */
export interface IssuedWhere extends IssuedPlace {
  ordinal: number;
}

function isCommon(ordinal: number, place: IssuedPlace): boolean {
  return (place.blocks ?? 1) === 1 && (place.at ?? ordinal) === ordinal;
}

/**
 * The place a bound blob was issued for, written after it (the MAC covers the place, so a false
 * claim only fails verification). It lets the judge name a moved block or a dropped sibling
 * without searching every place, as a real provider reads the context out of its own blob.
 */
function whereTrailer(ordinal: number, place: IssuedPlace): Buffer {
  if (isCommon(ordinal, place)) return Buffer.alloc(0);
  const out = Buffer.alloc(WHERE_BYTES);
  out.writeUInt16BE(ordinal, 0);
  out.writeUInt16BE(place.blocks ?? 1, 2);
  out.writeUInt16BE(place.at ?? ordinal, 4);
  return out;
}

/**
 * Bytes a signature bound to its conversation carries after the blob (mockBindSignature): the prefix digest, the model
 * digest, and a MAC over them and the blob's own digest.
 */
const CONVERSATION_BYTES = 16;
const MODEL_BYTES = 8;
const BINDING_BYTES = CONVERSATION_BYTES + MODEL_BYTES + TAG_BYTES;

const isBlobLength = (length: number) => length === BLOB_BYTES || length === BLOB_BYTES + WHERE_BYTES;

/** The well-formed bytes of a mock blob: canonical base64, common or bound length, with any binding trailer. */
function wholeBytes(blob: unknown): Buffer | undefined {
  if (typeof blob !== 'string' || blob === '') return undefined;
  // Buffer.from(.., 'base64') skips characters it cannot read, so compare the canonical spelling too.
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.toString('base64') !== blob) return undefined;
  return isBlobLength(bytes.length) || isBlobLength(bytes.length - BINDING_BYTES) ? bytes : undefined;
}

/** The blob's bytes when it is a well-formed mock blob, without the conversation binding it may carry. */
function blobBytes(blob: unknown): Buffer | undefined {
  const bytes = wholeBytes(blob);
  if (!bytes) return undefined;
  return isBlobLength(bytes.length) ? bytes : bytes.subarray(0, bytes.length - BINDING_BYTES);
}

/**
 * What a thinking signature is bound to (Claude Fable 5.1 thinking-block binding): a digest of the conversation before
 * the block (system, tools, earlier messages) and one of the model that wrote it, as hex.
 */
export interface SignatureBinding {
  conversation: string;
  model: string;
}

function bindingTag(signer: string, digest: Buffer, conversation: Buffer, model: Buffer): Buffer {
  return mac(signer, ['bound', digest.toString('hex'), conversation.toString('hex'), model.toString('hex')]).subarray(
    0,
    TAG_BYTES,
  );
}

/**
 * A signature bound to a conversation and a model: the signature as issued, then the two digests in clear and a MAC
 * tying them to this signature's digest. The real blob is opaque and the provider reads the binding out of it; the
 * clear digests let the mock do the same, and the MAC makes a moved or rewritten binding fail. The unbound part still
 * verifies as before, so every other rule reads a bound signature as it reads any.
 */
export function mockBindSignature(
  signature: string,
  binding: SignatureBinding,
  signer: string = CLAUDE_SIGNER,
): string {
  const base = Buffer.from(signature, 'base64');
  const conversation = Buffer.from(binding.conversation, 'hex').subarray(0, CONVERSATION_BYTES);
  const model = Buffer.from(binding.model, 'hex').subarray(0, MODEL_BYTES);
  if (!isBlobLength(base.length) || conversation.length !== CONVERSATION_BYTES || model.length !== MODEL_BYTES)
    throw new InvariantError('mockBindSignature: an unbound mock signature and full-length digests are required');
  const tag = bindingTag(signer, base.subarray(0, DIGEST_BYTES), conversation, model);
  return Buffer.concat([base, conversation, model, tag]).toString('base64');
}

/** What this signature is bound to, when it carries a binding this signer wrote for it; undefined otherwise. */
export function mockSignatureBinding(signature: unknown, signer: string = CLAUDE_SIGNER): SignatureBinding | undefined {
  const bytes = wholeBytes(signature);
  if (!bytes || isBlobLength(bytes.length)) return undefined;
  const trailer = bytes.subarray(bytes.length - BINDING_BYTES);
  const conversation = trailer.subarray(0, CONVERSATION_BYTES);
  const model = trailer.subarray(CONVERSATION_BYTES, CONVERSATION_BYTES + MODEL_BYTES);
  const tag = trailer.subarray(CONVERSATION_BYTES + MODEL_BYTES);
  if (!sameBytes(tag, bindingTag(signer, bytes.subarray(0, DIGEST_BYTES), conversation, model))) return undefined;
  return { conversation: conversation.toString('hex'), model: model.toString('hex') };
}

/** Digest lengths a binding holds, in hex characters (for the code that makes them). */
export const BINDING_DIGEST_HEX = { conversation: CONVERSATION_BYTES * 2, model: MODEL_BYTES * 2 } as const;

/**
 * Where the mock claims to have issued this signature or redacted data, when it was bound to a place; undefined for the
 * common place or a foreign blob.
 */
export function mockIssuedWhere(blob: unknown): IssuedWhere | undefined {
  const bytes = blobBytes(blob);
  if (!bytes || bytes.length === BLOB_BYTES) return undefined;
  return {
    ordinal: bytes.readUInt16BE(BLOB_BYTES),
    blocks: bytes.readUInt16BE(BLOB_BYTES + 2),
    at: bytes.readUInt16BE(BLOB_BYTES + 4),
  };
}

/**
 * The signature of one thinking block: a digest over its exact text and its place (ordinal,
 * and the bound parts of IssuedPlace), followed by a tag over that digest (and, when bound, the
 * place in clear). The tag lets the mock tell a signature it issued for other text or another
 * place (the block was edited, moved or emptied, or a sibling dropped: Anthropic's "cannot be
 * modified" in the latest message) from one it never issued (forged, foreign, truncated:
 * "Invalid signature").
 */
export function mockSignThinking(
  thinking: string,
  ordinal: number,
  signer: string = CLAUDE_SIGNER,
  place: IssuedPlace = {},
): string {
  const digest = mac(signer, coverage('thinking', ordinal, thinking, place));
  return Buffer.concat([digest, issueTag(signer, digest), whereTrailer(ordinal, place)]).toString('base64');
}

/** True when this signer issued the signature, for whatever text and place. */
export function mockSignatureIssued(signature: unknown, signer: string = CLAUDE_SIGNER): boolean {
  const bytes = blobBytes(signature);
  return (
    bytes !== undefined &&
    sameBytes(bytes.subarray(DIGEST_BYTES, DIGEST_BYTES + TAG_BYTES), issueTag(signer, bytes.subarray(0, DIGEST_BYTES)))
  );
}

/** True when the signature was issued for this text at this place (an empty place: the single-block form). */
export function verifyMockThinkingSignature(
  thinking: string,
  ordinal: number,
  signature: unknown,
  signer: string = CLAUDE_SIGNER,
  place: IssuedPlace = {},
): boolean {
  const bytes = blobBytes(signature);
  return (
    bytes !== undefined &&
    mockSignatureIssued(signature, signer) &&
    sameBytes(bytes.subarray(0, DIGEST_BYTES), mac(signer, coverage('thinking', ordinal, thinking, place)))
  );
}

const NONCE_BYTES = 16;

/**
 * Opaque redacted-thinking data: a nonce derived from `seed` (synthesized fixtures must be
 * reproducible) followed by a MAC over it. Nothing readable is inside, as with the real blobs.
 */
export function mockRedactedData(
  seed: string,
  ordinal: number,
  signer: string = CLAUDE_SIGNER,
  place: IssuedPlace = {},
): string {
  const nonce = createHash('sha256').update(seed).digest().subarray(0, NONCE_BYTES);
  return Buffer.concat([
    nonce,
    mac(signer, coverage('redacted', ordinal, nonce.toString('hex'), place)),
    whereTrailer(ordinal, place),
  ]).toString('base64');
}

export function verifyMockRedactedData(
  data: unknown,
  ordinal: number,
  signer: string = CLAUDE_SIGNER,
  place: IssuedPlace = {},
): boolean {
  const bytes = blobBytes(data);
  if (!bytes) return false;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  return sameBytes(
    bytes.subarray(NONCE_BYTES, BLOB_BYTES),
    mac(signer, coverage('redacted', ordinal, nonce.toString('hex'), place)),
  );
}
