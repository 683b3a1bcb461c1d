import type { ProviderSpec } from '../../providers/provider-spec.js';
import { isPlainObject } from '../../util/deep-merge.js';
import type { Finding } from '../finding.js';
import { encryptedKind, verifyMockOpaque } from '../mock-opaque.js';

/**
 * `fc_<hex>_<n>` and `msg_<hex>` were issued after reasoning item `rs_<hex>` (how the mock's
 * renderer names items; see responsesIds in src/mocks/openai-responses/render-answer.ts).
 */
function requiredReasoning(itemId: unknown): string | undefined {
  const m = typeof itemId === 'string' ? /^(?:fc_([0-9a-f]+)_\d+|msg_([0-9a-f]+))$/.exec(itemId) : null;
  return m ? `rs_${m[1] ?? m[2]}` : undefined;
}

/** Items a response can produce right after its reasoning: a call (function, custom or built-in), a message, more reasoning. */
function isOutputItem(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  const type = typeof item.type === 'string' ? item.type : '';
  return type === 'message' || type === 'reasoning' || type === 'function_call' || (type.endsWith('_call') && !type.endsWith('_call_output')) || type.startsWith('mcp_') || item.role === 'assistant';
}

/** `gAAAAB...DQ==` as OpenAI's older message abbreviates a blob. */
const abbreviated = (blob: string) => (blob.length > 12 ? `${blob.slice(0, 4)}...${blob.slice(-4)}` : blob);

/**
 * What the Responses API checks about replayed reasoning when nothing is stored (`store: false`):
 * a reasoning item must bring its encrypted_content (the server cannot look it up), that content
 * must be what the server issued for that item, and an fc_/reasoning pair must arrive together
 * and in order. Each rule runs only when the spec defines its rejection.
 */
export function judgeOpenAIResponses(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.input)) return [];
  const has = (id: string) => id in spec.rejections;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const input: unknown[] = body.input;
  input.forEach((item: unknown, index: number) => {
    if (!isPlainObject(item)) return;
    const id = typeof item.id === 'string' ? item.id : '';
    if (item.type === 'reasoning') {
      const params = { index, path: id, field: 'encrypted_content' };
      const content = item.encrypted_content;
      if ((content === undefined || content === null || content === '') && body.store === false) {
        if (has('item-not-found'))
          findings.push({ rule: 'signatures-verbatim', rejection: 'item-not-found', params, detail: `reasoning item ${id} at input ${index} has no encrypted_content and store is false` });
      } else if (content !== undefined && content !== null && !verifyMockOpaque('openai-responses', encryptedKind(id), content)) {
        // Without an id the server cannot name the item; the older wording names the blob instead [INF].
        const rejection = id === '' && has('encrypted-content-not-verified-legacy') ? 'encrypted-content-not-verified-legacy' : 'encrypted-content-not-verified';
        if (has(rejection))
          findings.push({
            rule: 'signatures-verbatim',
            rejection,
            params: { ...params, item: abbreviated(String(content)) },
            detail: `encrypted_content of ${id || 'an id-less reasoning item'} at input ${index} is not what the server issued for that item`,
          });
      }
      const followed = isOutputItem(input[index + 1]);
      if (!followed && has('reasoning-without-following')) {
        findings.push({
          rule: 'provider-accepts',
          rejection: 'reasoning-without-following',
          params: { index, path: id },
          detail: `reasoning item ${id} at input ${index} is not followed by the item it produced`,
        });
      }
      if (id) seen.add(id);
    } else if (item.type === 'function_call' || item.type === 'message') {
      const needed = requiredReasoning(item.id);
      const rejection = item.type === 'function_call' ? 'function-call-without-reasoning' : 'message-without-reasoning';
      if (needed && !seen.has(needed) && has(rejection)) {
        findings.push({ rule: 'provider-accepts', rejection, params: { index, path: id, field: needed }, detail: `${item.type} ${id} at input ${index} arrived without its reasoning item ${needed}` });
      }
    }
  });
  return findings;
}
