import type { ProviderSpec } from '../../providers/provider-spec.js';
import { isPlainObject } from '../../util/deep-merge.js';
import type { Finding } from '../finding.js';
import { verifyMockRedactedData, verifyMockThinkingSignature } from '../mock-signature.js';
import { toolLoopOpener, type LoopMessage } from './claude-tool-loop.js';

const REASONING = new Set(['thinking', 'redacted_thinking']);

function blocksOf(message: unknown): Record<string, unknown>[] {
  if (!isPlainObject(message)) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content.filter(isPlainObject) : [];
}

function thinkingEnabled(body: Record<string, unknown>): boolean {
  return isPlainObject(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
}

/**
 * What Claude's Messages API checks about replayed reasoning (Anthropic direct, Vertex, Foundry).
 * Each rule runs only when the spec defines its rejection, so a spec states which rules its
 * endpoint enforces. Signatures are the mock's HMACs (src/mocks/mock-signature.ts): an edited,
 * rebuilt, reordered or foreign block fails exactly as Anthropic documents.
 */
export function judgeAnthropicMessages(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const has = (id: string) => id in spec.rejections;
  const findings: Finding[] = [];
  const messages = body.messages;
  const lastAssistant = messages.reduce<number>((at, m, i) => (isPlainObject(m) && m.role === 'assistant' ? i : at), -1);

  messages.forEach((message, index) => {
    if (!isPlainObject(message) || message.role !== 'assistant') return;
    let ordinal = 0;
    blocksOf(message).forEach((block, at) => {
      if (!REASONING.has(String(block.type))) return;
      const params = { index, block: at, role: 'assistant', path: `messages.${index}.content.${at}` };
      if (block.type === 'thinking') {
        if (typeof block.signature !== 'string' && has('missing-signature')) {
          findings.push({ rule: 'signatures-verbatim', rejection: 'missing-signature', params: { ...params, field: 'signature' }, detail: `thinking block ${at} of message ${index} has no signature` });
        } else if (!verifyMockThinkingSignature(String(block.thinking ?? ''), ordinal, block.signature) && has('invalid-signature')) {
          findings.push({ rule: 'signatures-verbatim', rejection: 'invalid-signature', params, detail: `thinking block ${at} of message ${index} (reasoning block #${ordinal}) does not match the signature the provider issued` });
        }
      } else if (!verifyMockRedactedData(block.data, ordinal)) {
        const rejection = index === lastAssistant ? 'blocks-modified' : 'invalid-redacted';
        if (has(rejection)) findings.push({ rule: 'signatures-verbatim', rejection, params, detail: `redacted_thinking block ${at} of message ${index} is not the data the provider issued` });
      }
      ordinal++;
    });
  });

  if (thinkingEnabled(body) && has('thinking-expected')) {
    const shape: LoopMessage[] = messages.map((m) => ({ role: isPlainObject(m) ? String(m.role) : '', kinds: blocksOf(m).map((b) => String(b.type)) }));
    const opener = toolLoopOpener(shape);
    const first = opener === undefined ? undefined : shape[opener]!.kinds[0];
    if (opener !== undefined && !REASONING.has(first ?? '')) {
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'thinking-expected',
        params: { index: opener, block: 0, found: first ?? 'nothing', role: 'assistant', path: `messages.${opener}.content.0.type` },
        detail: `assistant message ${opener} opens the current tool loop with ${first ?? 'no block'}, not thinking`,
      });
    }
  }
  return findings;
}
