import { createHash } from 'node:crypto';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { geminiSigner } from '../../../provider/signing/mock-opaque.js';
import type { IssuedBlob } from './issued-blobs.js';

const seedOf = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);

/** The placeholder that stands for a blob in the corpus: what the mock would have issued in its place. */
function placeholderFor(blob: IssuedBlob, spec: ProviderSpec): Record<string, unknown> | undefined {
  const place = (b: { ordinal: number; blocks: number; at: number }) => ({
    ordinal: b.ordinal,
    ...(b.blocks !== 1 ? { blocks: b.blocks } : {}),
    ...(b.at !== b.ordinal ? { at: b.at } : {}),
  });
  switch (blob.kind) {
    case 'claude-signature':
      return { $mockSignature: { thinking: blob.text, ...place(blob) } };
    case 'claude-redacted':
      return { $mockRedacted: { seed: seedOf(blob.value), ...place(blob) } };
    case 'gemini-thought':
      return {
        $mockOpaque: {
          signer: spec.family === 'gemini' ? geminiSigner(spec) : 'gemini',
          kind: 'thought',
          seed: seedOf(blob.value),
        },
      };
    case 'responses-encrypted':
      return { $mockEncrypted: { itemId: blob.itemId, seed: seedOf(blob.value), issuer: spec.id } };
    case 'responses-item-id':
      // The mock pairs only ids of the rs_<hex> shape it issues; another id stays as sent (foreign to the mock).
      return /^rs_[0-9a-f]+$/.test(blob.reasoningId)
        ? { $mockItemId: { type: blob.type, reasoningId: blob.reasoningId, ordinal: blob.ordinal } }
        : undefined;
  }
}

/**
 * A request the engine built from live answers, in the corpus's form: every blob a live answer of
 * this run issued becomes the placeholder that means "the blob the issuer gave for this content,
 * at this place", so the mock judges the request as the live provider did (an intact replay
 * verifies, an edited or moved block does not), and a case written from it replays in the corpus.
 * A blob nobody in this run issued stays as sent: it is foreign to both.
 */
export function toCorpusForm(body: unknown, issued: readonly IssuedBlob[], spec: ProviderSpec): unknown {
  if (issued.length === 0) return body;
  const byValue = new Map<string, IssuedBlob>();
  for (const blob of issued) if (!byValue.has(blob.value)) byValue.set(blob.value, blob);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const blob = byValue.get(value);
      return (blob && placeholderFor(blob, spec)) ?? value;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(body);
}
