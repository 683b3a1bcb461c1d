import { settleFindings } from '../../../provider/handlers/answer-policy.js';
import { judgeMessageEchoes } from '../../../provider/rules/message-echo-judge.js';
import { defaultProvidersDir, loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { ServeLogEntry } from '../serve/serve-log.js';

export const specs: ProviderSpec[] = loadProviderSpecs(defaultProvidersDir());
export const spec = (id: string): ProviderSpec => specs.find((s) => s.id === id)!;

const toolCall = (id: string) => [{ id, type: 'function', function: { name: 'search_notes', arguments: '{}' } }];

/**
 * A DeepSeek conversation: a tool turn with or without its reasoning_content, the tool's answer, and (optionally) a
 * final plain answer without reasoning_content (a contested rule) and a new user message.
 */
export function deepseekBody(options: { reasoning: boolean; plainAnswer?: boolean }): Record<string, unknown> {
  const messages: unknown[] = [
    { role: 'user', content: 'find my notes' },
    {
      role: 'assistant',
      content: null,
      tool_calls: toolCall('call_1'),
      ...(options.reasoning ? { reasoning_content: 'I should search the notes.' } : {}),
    },
    { role: 'tool', tool_call_id: 'call_1', content: '3 notes' },
  ];
  if (options.plainAnswer) messages.push({ role: 'assistant', content: 'You have 3 notes.' });
  return { model: 'deepseek-v4-flash', messages };
}

/** A log entry as serve writes it: the real DeepSeek judge's findings, settled as the mock answers them. */
export function deepseekEntry(seq: number, body: Record<string, unknown>, extra: Partial<ServeLogEntry> = {}) {
  const { refusing, findings } = settleFindings(judgeMessageEchoes(spec('deepseek'), body));
  return entry(seq, 'deepseek', refusing.length ? 400 : 200, findings, body, extra);
}

export function entry(
  seq: number,
  provider: string,
  status: number,
  findings: ServeLogEntry['findings'],
  body?: unknown,
  extra: Partial<ServeLogEntry> = {},
): ServeLogEntry {
  const s = spec(provider);
  return {
    seq,
    time: '2026-01-01T00:00:00.000Z',
    provider,
    route: provider,
    tier: 'must-echo',
    family: s.family,
    scenario: 'follow-client',
    call: seq - 1,
    method: 'POST',
    path: `/${provider}${s.endpoint.path}`,
    status,
    sentFields: [],
    findings,
    client: 'test-agent',
    runId: 'rr-test',
    ...(body === undefined ? {} : { body }),
    ...extra,
  };
}
