import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

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
 * What a digest covers. `blocks` is the number of reasoning blocks the issuing message held: a
 * real signature lets Claude see that a sibling block was dropped even when the blocks left are
 * intact (BerriAI/litellm#25375: a redacted block dropped after an intact thinking block is
 * refused, the error pointing where the dropped block stood), so the mock binds it too. A
 * message's only block (`blocks` 1, or not given) keeps the original form, so every signature
 * issued before this binding existed, and every single-block answer, stays the same.
 */
function coverage(kind: 'thinking' | 'redacted', ordinal: number, content: string, blocks: number | undefined): string[] {
  const parts = [kind, String(ordinal), content];
  return blocks === undefined || blocks === 1 ? parts : [...parts, `of ${blocks}`];
}

/**
 * The signature of one thinking block: a digest over its exact text, its place in the sequence
 * and (when the message held several) the sequence's length, followed by a tag over that digest.
 * The tag lets the mock tell a signature it issued for other text or another sequence (the block
 * was edited, moved or emptied, or a sibling dropped: Anthropic's "cannot be modified" in the
 * latest message) from one it never issued (forged, foreign, truncated: "Invalid signature").
 */
export function mockSignThinking(thinking: string, ordinal: number, signer: string = CLAUDE_SIGNER, blocks?: number): string {
  const digest = mac(signer, coverage('thinking', ordinal, thinking, blocks));
  return Buffer.concat([digest, issueTag(signer, digest)]).toString('base64');
}

function decodeSignature(signature: unknown): Buffer | undefined {
  if (typeof signature !== 'string' || signature === '') return undefined;
  // Buffer.from(.., 'base64') skips characters it cannot read, so compare the canonical spelling too.
  const bytes = Buffer.from(signature, 'base64');
  return bytes.toString('base64') === signature && bytes.length === DIGEST_BYTES + TAG_BYTES ? bytes : undefined;
}

/** True when this signer issued the signature, for whatever text and place. */
export function mockSignatureIssued(signature: unknown, signer: string = CLAUDE_SIGNER): boolean {
  const bytes = decodeSignature(signature);
  return bytes !== undefined && sameBytes(bytes.subarray(DIGEST_BYTES), issueTag(signer, bytes.subarray(0, DIGEST_BYTES)));
}

/** True when the signature was issued for this text at this place, in a message of `blocks` reasoning blocks (undefined: the single-block form). */
export function verifyMockThinkingSignature(thinking: string, ordinal: number, signature: unknown, signer: string = CLAUDE_SIGNER, blocks?: number): boolean {
  const bytes = decodeSignature(signature);
  return bytes !== undefined && mockSignatureIssued(signature, signer) && sameBytes(bytes.subarray(0, DIGEST_BYTES), mac(signer, coverage('thinking', ordinal, thinking, blocks)));
}

const NONCE_BYTES = 16;

/**
 * Opaque redacted-thinking data: a nonce derived from `seed` (synthesized fixtures must be
 * reproducible) followed by a MAC over it. Nothing readable is inside, as with the real blobs.
 */
export function mockRedactedData(seed: string, ordinal: number, signer: string = CLAUDE_SIGNER, blocks?: number): string {
  const nonce = createHash('sha256').update(seed).digest().subarray(0, NONCE_BYTES);
  return Buffer.concat([nonce, mac(signer, coverage('redacted', ordinal, nonce.toString('hex'), blocks))]).toString('base64');
}

export function verifyMockRedactedData(data: unknown, ordinal: number, signer: string = CLAUDE_SIGNER, blocks?: number): boolean {
  if (typeof data !== 'string' || data === '') return false;
  const bytes = Buffer.from(data, 'base64');
  if (bytes.toString('base64') !== data || bytes.length <= NONCE_BYTES) return false;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  return sameBytes(bytes.subarray(NONCE_BYTES), mac(signer, coverage('redacted', ordinal, nonce.toString('hex'), blocks)));
}
