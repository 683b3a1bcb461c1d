import type { ProviderSpec } from '../../providers/provider-spec.js';
import { isPlainObject } from '../../util/deep-merge.js';
import type { Finding } from '../finding.js';
import { encryptedKind, verifyMockOpaque } from '../mock-opaque.js';

/** `fc_<hex>_<n>` was issued after reasoning item `rs_<hex>` (how the mock's renderer names items; see responsesIds in src/families/openai-responses/render-answer.ts). */
function requiredReasoning(fcId: unknown): string | undefined {
  const m = typeof fcId === 'string' ? /^fc_([0-9a-f]+)_\d+$/.exec(fcId) : null;
  return m ? `rs_${m[1]}` : undefined;
}

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
        if (has('item-not-found')) findings.push({ rule: 'signatures-verbatim', rejection: 'item-not-found', params, detail: `reasoning item ${id} at input ${index} has no encrypted_content and store is false` });
      } else if (content !== undefined && content !== null && !verifyMockOpaque('openai-responses', encryptedKind(id), content)) {
        if (has('encrypted-content-not-verified')) findings.push({ rule: 'signatures-verbatim', rejection: 'encrypted-content-not-verified', params, detail: `encrypted_content of ${id} at input ${index} is not what the server issued for that item` });
      }
      const next = input[index + 1];
      const followed = isPlainObject(next) && (next.type === 'function_call' || next.type === 'message' || next.type === 'reasoning' || next.role === 'assistant');
      if (!followed && has('reasoning-without-following')) {
        findings.push({ rule: 'provider-accepts', rejection: 'reasoning-without-following', params: { index, path: id }, detail: `reasoning item ${id} at input ${index} is not followed by the item it produced` });
      }
      if (id) seen.add(id);
    } else if (item.type === 'function_call') {
      const needed = requiredReasoning(item.id);
      if (needed && !seen.has(needed) && has('function-call-without-reasoning')) {
        findings.push({ rule: 'provider-accepts', rejection: 'function-call-without-reasoning', params: { index, path: id, field: needed }, detail: `function_call ${id} at input ${index} arrived without its reasoning item ${needed}` });
      }
    }
  });
  return findings;
}
