import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';

/**
 * Opaque blobs the Gemini, Copilot and OpenAI Responses mocks issue and later check: Gemini
 * thoughtSignature, Copilot reasoning_opaque / thought_signature, Responses blobs other than encrypted_content (which
 * carries its organization: signing/openai-issued-items.ts).
 * Real providers refuse a blob they did not issue or one with a byte changed; a nonce followed by
 * an HMAC (key known only to the mock, separate per signer) gives that property offline. Unlike
 * Claude signatures these are not bound to readable text: none of these providers documents that
 * editing the visible text invalidates them, so the mock does not claim it.
 *
 * `seed` makes the nonce reproducible: synthesized fixtures must be byte-stable across runs.
 */
export type OpaqueSigner =
  | 'gemini'
  | 'vertex-gemini'
  | 'copilot'
  | 'openai-responses'
  /** The provider spec that issued a compaction carrier (mock-compaction.ts). */
  | `compaction:${string}`;

const NONCE_BYTES = 18;

function mac(signer: OpaqueSigner, kind: string, nonce: Buffer): Buffer {
  const key = createHash('sha256').update(`reasoning-replay mock opaque key\u0000${signer}`).digest();
  return createHmac('sha256', key)
    .update(`${kind}\u0000${nonce.toString('hex')}`)
    .digest();
}

export function mockOpaque(signer: OpaqueSigner, kind: string, seed: string): string {
  const nonce = createHash('sha256').update(`${signer}\u0000${kind}\u0000${seed}`).digest().subarray(0, NONCE_BYTES);
  return Buffer.concat([nonce, mac(signer, kind, nonce)]).toString('base64');
}

/** True only for a blob this signer issued for this kind, byte for byte (canonical base64 included). */
export function verifyMockOpaque(signer: OpaqueSigner, kind: string, blob: unknown): boolean {
  if (typeof blob !== 'string' || blob === '') return false;
  const bytes = Buffer.from(blob, 'base64');
  // Buffer.from skips what it cannot decode and ignores padding bits: compare the canonical spelling.
  if (bytes.toString('base64') !== blob || bytes.length <= NONCE_BYTES) return false;
  const expected = mac(signer, kind, bytes.subarray(0, NONCE_BYTES));
  const given = bytes.subarray(NONCE_BYTES);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Vertex signs with its own keys: a signature from the Gemini API is foreign there, and back. */
export function geminiSigner(spec: ProviderSpec): OpaqueSigner {
  return new URL(spec.endpoint.baseUrl).hostname.endsWith('aiplatform.googleapis.com') ? 'vertex-gemini' : 'gemini';
}
