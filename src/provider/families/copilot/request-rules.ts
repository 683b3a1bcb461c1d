import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { Finding } from '../../../shared/findings/finding.js';
import { verifyMockOpaque } from '../../signing/mock-opaque.js';

/** Models Copilot serves with opaque reasoning that must come back (Gemini 3: opencode#4468; Claude: pi#1502). */
const OPAQUE_MODELS = /gemini|claude/i;

/**
 * What Copilot's chat completions checks for Gemini and Claude models: the tool-call assistant
 * messages of the current turn (after the last user message) carry the reasoning_opaque Copilot
 * issued, unmodified; a thought_signature on a tool call must be one it issued. Each rule runs
 * only when the spec defines its rejection.
 */
export function judgeCopilot(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const model = typeof body.model === 'string' ? body.model : spec.target.model;
  if (!OPAQUE_MODELS.test(model)) return [];
  const has = (id: string) => id in spec.rejections;
  const findings: Finding[] = [];
  const messages = body.messages;
  const lastUser = messages.reduce<number>((at, m, i) => (isPlainObject(m) && m.role === 'user' ? i : at), -1);
  messages.forEach((message, index) => {
    if (
      !isPlainObject(message) ||
      message.role !== 'assistant' ||
      !Array.isArray(message.tool_calls) ||
      message.tool_calls.length === 0
    )
      return;
    const params = { index, role: 'assistant', field: 'reasoning_opaque', path: `messages.${index}.reasoning_opaque` };
    if ('reasoning_opaque' in message && !verifyMockOpaque('copilot', 'opaque', message.reasoning_opaque)) {
      if (has('invalid-opaque'))
        findings.push({
          rule: 'signatures-verbatim',
          rejection: 'invalid-opaque',
          params,
          detail: `message ${index} carries a reasoning_opaque Copilot never issued`,
        });
    } else if (!('reasoning_opaque' in message) && index > lastUser && has('missing-opaque')) {
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'missing-opaque',
        params,
        detail: `tool-call message ${index} of the current turn has no reasoning_opaque`,
      });
    }
    message.tool_calls.forEach((call: unknown, at: number) => {
      const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : {};
      if (
        'thought_signature' in fn &&
        !verifyMockOpaque('copilot', 'thought-signature', fn.thought_signature) &&
        has('invalid-opaque')
      ) {
        findings.push({
          rule: 'signatures-verbatim',
          rejection: 'invalid-opaque',
          params: {
            ...params,
            field: 'thought_signature',
            path: `messages.${index}.tool_calls.${at}.function.thought_signature`,
          },
          detail: `tool call ${at} of message ${index} carries a thought_signature Copilot never issued`,
        });
      }
    });
  });
  return findings;
}
