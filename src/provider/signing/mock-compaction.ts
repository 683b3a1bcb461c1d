import { mockOpaque, verifyMockOpaque } from './mock-opaque.js';

/**
 * The encrypted_content of a compaction carrier the mocks issue (Anthropic's `compaction` block,
 * compact_20260112; a Responses `compaction` item). Real providers document it as opaque, to be sent
 * back verbatim, and readable only by the provider that produced it: the blob is an HMAC keyed per
 * issuing provider spec, so an edited, rebuilt or foreign one fails, as with the other opaque blobs
 * (mock-opaque.ts). `seed` keeps synthesized fixtures byte-stable.
 */
export function mockCompactionContent(issuer: string, seed: string): string {
  return mockOpaque(`compaction:${issuer}`, 'compaction', seed);
}

/** True only for a compaction blob this issuer wrote, byte for byte. */
export function verifyMockCompaction(issuer: string, blob: unknown): boolean {
  return verifyMockOpaque(`compaction:${issuer}`, 'compaction', blob);
}
