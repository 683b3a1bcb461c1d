import type { ProviderSpec } from '../../providers/provider-spec.js';
import { isPlainObject } from '../../util/deep-merge.js';
import type { Finding } from '../finding.js';

/**
 * Required echoes on a chat-shaped body (`messages[]`): DeepSeek, Kimi and MiMo answer 400 when a
 * tool-call assistant turn comes back without its reasoning_content. Recommended echoes are not a
 * provider error, so they are judged by the conformance runner, which knows what history held.
 */
export function judgeMessageEchoes(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const findings: Finding[] = [];
  for (const rule of spec.echo) {
    if (rule.level !== 'required' || !rule.rejection) continue;
    body.messages.forEach((message: unknown, index: number) => {
      if (!isPlainObject(message) || message.role !== 'assistant') return;
      const toolTurn = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
      if (rule.turns === 'tool-call-turns' && !toolTurn) return;
      const value = message[rule.field];
      const present = typeof value === 'string' && (rule.allowEmpty === true || value !== '');
      if (!present) {
        findings.push({
          rule: 'must-echo',
          rejection: rule.rejection!,
          params: { index, field: rule.field, role: 'assistant', path: `messages.${index}.${rule.field}` },
          detail: `assistant message ${index}${toolTurn ? ' (tool call)' : ''} has no ${rule.field}${value === '' ? ' (empty string)' : ''}`,
        });
      }
    });
  }
  return findings;
}
