import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { Finding } from '../../../shared/findings/finding.js';
import {
  encryptedContentOrganization,
  organizationOf,
  pairedReasoningId,
  reasoningStored,
} from '../../signing/openai-issued-items.js';
import { verifyMockCompaction } from '../../signing/mock-compaction.js';

/**
 * Items a response can produce right after its reasoning: a call (function, custom or built-in), a message, more
 * reasoning.
 */
function isOutputItem(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  const type = typeof item.type === 'string' ? item.type : '';
  // A message follows its reasoning only as the model's own: a user or system message is input, not output.
  if (type === 'message') return item.role === undefined || item.role === 'assistant';
  return (
    type === 'reasoning' ||
    type === 'function_call' ||
    (type.endsWith('_call') && !type.endsWith('_call_output')) ||
    type.startsWith('mcp_') ||
    item.role === 'assistant'
  );
}

/** A call the model made (function, custom or built-in), not its output. */
function isCall(item: unknown): boolean {
  if (!isPlainObject(item) || typeof item.type !== 'string') return false;
  return item.type.endsWith('_call') && !item.type.endsWith('_call_output');
}

/** A message item with no text in any part (the empty assistant message a converter injects). */
function hasNoText(item: Record<string, unknown>): boolean {
  const content = item.content;
  if (typeof content === 'string') return content === '';
  if (!Array.isArray(content)) return true;
  return content.every((part) => !isPlainObject(part) || typeof part.text !== 'string' || part.text === '');
}

/**
 * Why the item after a reasoning item that names its id is not the item that reasoning produced, or undefined when it
 * can be. The server pairs them by id: a call sent without its id is no follower (langchain-ai/langchainjs#9082,
 * 2025-09-30: adding the fc_ id ended the refusal), nor is an id-less assistant message without text standing between
 * the reasoning and its call (continuedev/continue#11721, 2026-03-23). An id-less message with text is the turn's
 * own answer as clients replay it, and is not judged (no source shows it refused). A reasoning item without an id
 * (store false, as Codex sends it) cannot be paired by the server and is judged only by what follows at all.
 */
function notItsFollower(input: readonly unknown[], index: number): string | undefined {
  const next = input[index + 1];
  if (!isOutputItem(next)) return 'is not followed by the item it produced';
  const item = next as Record<string, unknown>;
  if (typeof item.id === 'string' && item.id !== '') return undefined;
  const type = typeof item.type === 'string' ? item.type : 'message';
  if (isCall(item)) return `is followed by a ${type} without its id, which the server cannot pair with it`;
  if (type === 'message' && hasNoText(item) && isCall(input[index + 2]))
    return 'is followed by an id-less assistant message without text standing before the call it produced';
  return undefined;
}

/** `gAAAAB...DQ==` as OpenAI's older message abbreviates a blob. */
const abbreviated = (blob: string) => (blob.length > 12 ? `${blob.slice(0, 4)}...${blob.slice(-4)}` : blob);

/**
 * The verdict on one replayed encrypted_content for reasoning item `id`, as the OpenAI server
 * gives it to a request arriving as `spec`'s organization: issued for this item under this
 * organization passes; issued under another organization is refused with OpenAI's
 * organization wording; anything else could not be decrypted. Without an id the server cannot
 * name the item, and the older wording names the blob instead [INF]. Gateways reaching OpenAI
 * (gateway-upstream.ts) call this with their own spec and the upstream's rejections.
 */
export function encryptedContentFinding(
  spec: ProviderSpec,
  id: string,
  content: unknown,
  at: { index: number; path: string },
  rejections = spec.rejections,
): Finding | undefined {
  const has = (rejection: string) => rejection in rejections;
  const organization = encryptedContentOrganization(id, content);
  const target = organizationOf(spec.id);
  if (organization === target) return undefined;
  const legacy = id === '' && has('encrypted-content-not-verified-legacy');
  const rejection =
    organization === undefined
      ? legacy
        ? 'encrypted-content-not-verified-legacy'
        : 'encrypted-content-not-verified'
      : legacy && has('encrypted-content-other-organization-legacy')
        ? 'encrypted-content-other-organization-legacy'
        : 'encrypted-content-other-organization';
  if (!has(rejection)) return undefined;
  return {
    rule: 'signatures-verbatim',
    rejection,
    params: { index: at.index, path: id, field: 'encrypted_content', item: abbreviated(String(content)) },
    detail:
      organization === undefined
        ? `encrypted_content of ${id || 'an id-less reasoning item'} at ${at.path} is not what the server issued for that item`
        : `encrypted_content of ${id || 'an id-less reasoning item'} at ${at.path} was issued for ${organization}, not for ${target}`,
  };
}

/**
 * Whether the server has the item an input names by id: not under `store: false` (nothing is looked up), and not for
 * an item the mock issued in a response that was not stored; an id it did not issue is taken as found [INF: the
 * real server would look it up; no public wording for a stored id that is missing].
 */
function foundById(body: Record<string, unknown>, id: string): boolean {
  if (body.store === false) return false;
  const reasoning = id.startsWith('rs_')
    ? id
    : (pairedReasoningId('function_call', id) ?? pairedReasoningId('message', id));
  return reasoningStored(reasoning) !== false;
}

/**
 * What the Responses API checks about replayed reasoning: a reasoning item without its
 * encrypted_content, or an item_reference, is looked up by id, which fails under `store: false` or
 * for an item whose response was never stored (404 "Item with id … not found"); encrypted content
 * must be what the server issued for that item; and an fc_/reasoning pair must arrive together
 * and in order. Each rule runs only when the spec defines its rejection.
 */
export function judgeOpenAIResponses(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.input)) return [];
  const has = (id: string) => id in spec.rejections;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const input: unknown[] = body.input;
  // Only a model variant that does not reason defines this rejection: it has no encrypted reasoning to include.
  if (
    has('encrypted-content-unsupported-model') &&
    Array.isArray(body.include) &&
    body.include.includes('reasoning.encrypted_content')
  ) {
    findings.push({
      rule: 'provider-accepts',
      rejection: 'encrypted-content-unsupported-model',
      params: { path: 'include', field: 'include' },
      detail: 'include asks a model that does not reason for reasoning.encrypted_content',
    });
  }
  // Server compaction: the newest compaction item stands for everything before it, which the server then ignores
  // (OpenAI's guide: items before the most recent compaction item may be dropped); it must be the one issued.
  let floor = -1;
  input.forEach((item, index) => {
    if (isPlainObject(item) && item.type === 'compaction') floor = index;
  });
  if (floor >= 0 && has('compaction-invalid')) {
    const item = input[floor] as Record<string, unknown>;
    if (!verifyMockCompaction(spec.id, item.encrypted_content))
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'compaction-invalid',
        params: { index: floor, path: `input.${floor}`, field: 'encrypted_content' },
        detail: `the compaction item at input ${floor} is not one ${spec.label} issued, byte for byte`,
      });
  }
  input.forEach((item: unknown, index: number) => {
    if (!isPlainObject(item) || index <= floor) return;
    const id = typeof item.id === 'string' ? item.id : '';
    if (item.type === 'reasoning') {
      const params = { index, path: id, field: 'encrypted_content' };
      const content = item.encrypted_content;
      const missing = content === undefined || content === null;
      // Without content the server looks the item up by id: under store false, or for an item never stored, in vain.
      if (((missing || content === '') && body.store === false) || (missing && !foundById(body, id))) {
        if (has('item-not-found'))
          findings.push({
            rule: 'signatures-verbatim',
            rejection: 'item-not-found',
            params,
            detail: `reasoning item ${id} at input ${index} has no encrypted_content and ${body.store === false ? 'store is false' : 'was never stored (its response had store false)'}`,
          });
      } else if (!missing) {
        const finding = encryptedContentFinding(spec, id, content, { index, path: `input.${index}` });
        if (finding) findings.push(finding);
      }
      const why = id
        ? notItsFollower(input, index)
        : isOutputItem(input[index + 1])
          ? undefined
          : 'is not followed by the item it produced';
      if (why && has('reasoning-without-following')) {
        findings.push({
          rule: 'provider-accepts',
          rejection: 'reasoning-without-following',
          params: { index, path: id },
          detail: `reasoning item ${id} at input ${index} ${why}`,
        });
      }
      if (id) seen.add(id);
    } else if (item.type === 'item_reference') {
      // A stored item named by id (the AI SDK replays reasoning so when store is true): found only if it was stored.
      if (id && !foundById(body, id) && has('item-not-found'))
        findings.push({
          rule: 'signatures-verbatim',
          rejection: 'item-not-found',
          params: { index, path: id, field: 'id' },
          detail: `item_reference ${id} at input ${index} names an item ${body.store === false ? 'while store is false' : 'that was never stored'}`,
        });
      if (id) seen.add(id);
    } else if (item.type === 'function_call' || item.type === 'message') {
      // Only an id the mock issued names its reasoning item; a foreign id pairs with nothing.
      const needed = pairedReasoningId(item.type, item.id);
      const rejection = item.type === 'function_call' ? 'function-call-without-reasoning' : 'message-without-reasoning';
      if (needed && !seen.has(needed) && has(rejection)) {
        findings.push({
          rule: 'provider-accepts',
          rejection,
          params: { index, path: id, field: needed },
          detail: `${item.type} ${id} at input ${index} arrived without its reasoning item ${needed}`,
        });
      }
    }
  });
  return findings;
}
