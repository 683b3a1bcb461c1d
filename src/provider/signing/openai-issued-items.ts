import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { InvariantError } from '../../shared/errors/invariant-error.js';

/**
 * What the Responses mock issues and later recognises, as the real API does server-side:
 *
 * - `encrypted_content` of a reasoning item. OpenAI's blob is encrypted for one organization
 *   (the account of the API key that asked for it) and bound to its item: replayed under another
 *   organization it "could not be verified. Reason: Encrypted content organization_id did not
 *   match the target organization" (Kilo-Org/kilo#88, openai/codex#13724). The mock's blob
 *   carries the issuing organization in clear, under an HMAC over organization, item id and
 *   nonce, so the verifier can tell "issued for another organization" from "never issued".
 * - ids of the items a response produced after its reasoning (`fc_...`, `msg_...`). The real API
 *   knows which reasoning item an output item came with and refuses the item replayed without it
 *   (mastra-ai/mastra#8738: "Item 'fc_…' … was provided without its required 'reasoning' item:
 *   'rs_…'"). The mock's id carries the reasoning item's hex id, the item's ordinal and an HMAC
 *   of both, so only ids the mock issued are paired; an id it did not issue is foreign and never
 *   paired (docs/decisions/0023-responses-item-pairing-by-issued-ids.md, 0024).
 *
 * Every key is derived from a fixed label: the mock is offline and deterministic (fixtures must be
 * byte-stable), and the point is only that a blob or id cannot be edited or moved unnoticed.
 */

const KEY = createHash('sha256').update('reasoning-replay mock openai-responses issued items').digest();
const NONCE_BYTES = 18;
const MAC_BYTES = 32;
const ITEM_MAC_HEX = 16;

const hmac = (...parts: string[]) => createHmac('sha256', KEY).update(parts.join('\u0000')).digest();

/**
 * The OpenAI organization requests from this mock provider reach OpenAI as: each provider (direct
 * OpenAI, and every gateway with its own OpenAI account) is its own organization. The real
 * organization follows the API key (a gateway's pooled key, a BYOK key, a Kilo team); the mock
 * knows one account per provider.
 */
export function organizationOf(providerId: string): string {
  return `org-mock-${providerId}`;
}

/** The encrypted_content the mock issues for reasoning item `reasoningId` under `organization`. */
export function mockEncryptedContent(reasoningId: string, seed: string, organization: string): string {
  const nonce = createHash('sha256')
    .update(`${organization}\u0000${reasoningId}\u0000${seed}`)
    .digest()
    .subarray(0, NONCE_BYTES);
  const org = Buffer.from(organization, 'utf8');
  if (org.length > 255) throw new InvariantError('organization id too long for a mock blob');
  const mac = hmac('encrypted', reasoningId, organization, nonce.toString('hex'));
  return Buffer.concat([nonce, Buffer.from([org.length]), org, mac]).toString('base64');
}

/**
 * The organization an encrypted_content was issued for, when the mock issued it for this very
 * reasoning item byte for byte (canonical base64 included); undefined for anything else.
 */
export function encryptedContentOrganization(reasoningId: string, blob: unknown): string | undefined {
  if (typeof blob !== 'string' || blob === '') return undefined;
  const bytes = Buffer.from(blob, 'base64');
  // Buffer.from skips what it cannot decode and ignores padding bits: compare the canonical spelling.
  if (bytes.toString('base64') !== blob || bytes.length < NONCE_BYTES + 1 + MAC_BYTES) return undefined;
  const length = bytes[NONCE_BYTES]!;
  if (bytes.length !== NONCE_BYTES + 1 + length + MAC_BYTES) return undefined;
  const organization = bytes.subarray(NONCE_BYTES + 1, NONCE_BYTES + 1 + length).toString('utf8');
  const expected = hmac('encrypted', reasoningId, organization, bytes.subarray(0, NONCE_BYTES).toString('hex'));
  return timingSafeEqual(bytes.subarray(NONCE_BYTES + 1 + length), expected) ? organization : undefined;
}

const STORED_FLAG = { stored: '01', unstored: '00' } as const;
const reasoningMac = (base: string, flag: string) =>
  hmac('reasoning', base, flag).toString('hex').slice(0, ITEM_MAC_HEX);

/**
 * The id of a reasoning item the mock issues: `rs_<30 hex from seed><flag, 2 hex><mac, 16 hex>`, hex only like
 * OpenAI's. The flag says whether the response that produced it was stored (`store` not false): the real API can
 * find a stored item by its id later, and answers 404 for one it never persisted, so the mock reads that off the id.
 */
export function mockReasoningId(seed: string, stored: boolean): string {
  const base = createHash('sha256').update(seed).digest('hex').slice(0, 30);
  const flag = stored ? STORED_FLAG.stored : STORED_FLAG.unstored;
  return `rs_${base}${flag}${reasoningMac(base, flag)}`;
}

/** Whether the mock stored the reasoning item with this id (true/false), or undefined for an id it did not issue. */
export function reasoningStored(id: unknown): boolean | undefined {
  if (typeof id !== 'string') return undefined;
  const m = /^rs_([0-9a-f]{30})(0[01])([0-9a-f]{16})$/.exec(id);
  if (!m) return undefined;
  const [, base, flag, mac] = m as unknown as [string, string, string, string];
  if (!timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(reasoningMac(base, flag), 'hex'))) return undefined;
  return flag === STORED_FLAG.stored;
}

export type PairedItemType = 'function_call' | 'message';
const PREFIX: Record<PairedItemType, string> = { function_call: 'fc', message: 'msg' };

const itemMac = (type: PairedItemType, reasoningHex: string, ordinal: string) =>
  hmac('paired', type, reasoningHex, ordinal).toString('hex').slice(0, ITEM_MAC_HEX);

/**
 * The id of the `ordinal`-th item of `type` a response produced after reasoning item `rs_<hex>`:
 * `fc_<hex><ordinal, 2 hex><mac, 16 hex>` (or `msg_`), hex only like OpenAI's own ids.
 */
export function mockPairedItemId(type: PairedItemType, reasoningId: string, ordinal: number): string {
  const hex = /^rs_([0-9a-f]+)$/.exec(reasoningId)?.[1];
  if (hex === undefined)
    throw new InvariantError(`a paired item id needs a reasoning id rs_<hex>, not ${JSON.stringify(reasoningId)}`);
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal > 255)
    throw new InvariantError('a paired item ordinal is 0..255');
  const n = ordinal.toString(16).padStart(2, '0');
  return `${PREFIX[type]}_${hex}${n}${itemMac(type, hex, n)}`;
}

/** The reasoning item an item id says it was issued after, when the mock issued that id for that item type. */
export function pairedReasoningId(type: PairedItemType, itemId: unknown): string | undefined {
  if (typeof itemId !== 'string') return undefined;
  const m = new RegExp(`^${PREFIX[type]}_([0-9a-f]+)([0-9a-f]{2})([0-9a-f]{${ITEM_MAC_HEX}})$`).exec(itemId);
  if (!m || m[1]!.length === 0) return undefined;
  const [, hex, n, mac] = m as unknown as [string, string, string, string];
  const expected = Buffer.from(itemMac(type, hex, n), 'hex');
  return timingSafeEqual(Buffer.from(mac, 'hex'), expected) ? `rs_${hex}` : undefined;
}
