import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { History, Message, ReasoningDetail } from '../../../shared/history/history.js';
import type { ReplayPolicy, RoutePolicy } from '../../../shared/route-table/route-table.js';
import { aHistory, PROPERTY_RUNS } from '../../../../test/helpers/history-arbitraries.test-helper.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { toBedrockConverseRequest } from '../bedrock-converse/to-request.js';
import { toAnthropicMessagesRequest } from './to-request.js';

const policy = (family: RoutePolicy['family'], model: string, replayPolicy?: ReplayPolicy): RoutePolicy => ({
  routeId: family,
  label: family,
  family,
  tier: 'standard',
  fields: ['reasoning_details'],
  flags: {},
  ...(replayPolicy ? { replayPolicy } : {}),
  target: { provider: family, host: 'example.test', model },
});

/**
 * Oracle written apart from the converter: the opaque strings Claude must get back for one stored
 * message, in stored order. Only Claude's own items qualify: signed thinking, redacted blobs, and
 * OpenRouter items marked anthropic-claude-v1.
 */
function claudeOpaque(details: readonly ReasoningDetail[] | undefined): string[] {
  const out: string[] = [];
  for (const d of details ?? []) {
    const claude = d.type === 'thinking' || d.type === 'redacted_thinking' || d.format === 'anthropic-claude-v1';
    if (!claude) continue;
    if ((d.type === 'thinking' || d.type === 'reasoning.text') && typeof d.signature === 'string' && d.signature !== '')
      out.push(d.signature);
    if ((d.type === 'redacted_thinking' || d.type === 'reasoning.encrypted') && typeof d.data === 'string')
      out.push(d.data);
  }
  return out;
}

const assistants = (h: History): Message[] => h.messages.filter((m) => m.role === 'assistant');

/**
 * Every assistant turn gets text of its own, so each reaches the wire and wire turn k is turn k (empty ones are left
 * out by design, tested apart).
 */
const withText = (h: History): History => ({
  messages: h.messages.map((m, i) => (m.role === 'assistant' ? { ...m, content: `turn ${i}` } : m)),
});
const wireAssistants = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: Record<string, unknown>[] }[]).filter((m) => m.role === 'assistant');

describe('Claude-family replay over generated histories', () => {
  test('Anthropic: each turn replays exactly its Claude items, verbatim, in order, first, with no envelope keys', () => {
    fc.assert(
      fc.property(aHistory.map(withText), (history) => {
        const before = JSON.stringify(history);
        const { body } = toAnthropicMessagesRequest(
          deepFreeze(history),
          policy('anthropic-messages', 'claude-sonnet-4-5'),
        );
        expect(JSON.stringify(history)).toBe(before);
        const wire = wireAssistants(body);
        expect(wire).toHaveLength(assistants(history).length);
        assistants(history).forEach((m, k) => {
          const blocks = wire[k]!.content;
          const reasoning = blocks.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
          expect(reasoning.map((b) => (b.type === 'thinking' ? b.signature : b.data))).toEqual(
            claudeOpaque(m.reasoning_details),
          );
          expect(blocks.slice(0, reasoning.length)).toEqual(reasoning);
          for (const b of reasoning)
            expect(Object.keys(b).sort()).toEqual(
              b.type === 'thinking' ? ['signature', 'thinking', 'type'] : ['data', 'type'],
            );
        });
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  test('Bedrock: each policy sends what it promises and nothing else', () => {
    fc.assert(
      fc.property(
        aHistory.map(withText),
        fc.constantFrom<ReplayPolicy>('signed', 'strip', 'unsigned'),
        (history, replay) => {
          const before = JSON.stringify(history);
          const { body } = toBedrockConverseRequest(
            deepFreeze(history),
            policy('bedrock-converse', 'us.anthropic.claude-sonnet-4-5-v1:0', replay),
          );
          expect(JSON.stringify(history)).toBe(before);
          const lastUser = history.messages.map((m) => m.role).lastIndexOf('user');
          const wire = wireAssistants(body);
          history.messages.forEach((m, i) => {
            if (m.role !== 'assistant') return;
            const k = assistants(history).indexOf(m);
            const reasoning = wire[k]!.content.flatMap((b) =>
              isPlainObject(b.reasoningContent) ? [b.reasoningContent] : [],
            );
            if (replay === 'signed') {
              const opaque = reasoning.map((r) =>
                isPlainObject(r.reasoningText) ? r.reasoningText.signature : r.redactedContent,
              );
              expect(opaque).toEqual(claudeOpaque(m.reasoning_details));
            } else {
              expect(JSON.stringify(reasoning)).not.toMatch(/"signature"|"redactedContent"/);
              if (replay === 'strip' && i < lastUser) expect(reasoning).toEqual([]);
            }
          });
        },
      ),
      {
        numRuns: PROPERTY_RUNS,
      },
    );
  });
});
