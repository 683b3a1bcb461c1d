import { describe, expect, it } from 'vitest';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import { fromAnthropicMessagesResponse } from '../anthropic-messages/from-response.js';
import { convertToAnthropicMessages } from '../anthropic-messages/convert-to-anthropic-messages.js';
import { fromBedrockConverseResponse } from './from-response.js';
import { convertToConverseMessages } from './convert-to-converse-messages.js';

/**
 * Converse's redactedContent and the Messages API's redacted_thinking.data are different
 * encodings of a redacted block: each surface gets back only the blob it issued, and a blob does
 * not cross to the other surface (a foreign encoding would be refused or, worse, misread).
 */
const table = loadRouteTable();
const bedrock = resolveRoute(table, {
  provider: 'bedrock',
  host: 'bedrock-runtime.us-east-1.amazonaws.com',
  model: 'anthropic.claude-sonnet-4-5',
});
const anthropic = resolveRoute(table, { provider: 'anthropic', host: 'api.anthropic.com', model: 'claude-sonnet-4-5' });

const fromBedrock = fromBedrockConverseResponse({
  output: {
    message: {
      role: 'assistant',
      content: [
        { reasoningContent: { redactedContent: 'QkVEUk9DSy1CTE9C' } },
        { reasoningContent: { reasoningText: { text: 'r', signature: 'SIG-B' } } },
        { text: 'ok' },
      ],
    },
  },
  stopReason: 'end_turn',
}).message;
const fromAnthropic = fromAnthropicMessagesResponse({
  content: [
    { type: 'redacted_thinking', data: 'ANTHROPIC-BLOB' },
    { type: 'thinking', thinking: 'r', signature: 'SIG-A' },
    { type: 'text', text: 'ok' },
  ],
  stop_reason: 'end_turn',
}).message;
const history = (m: typeof fromBedrock) => ({
  messages: [{ role: 'user' as const, content: 'q' }, m, { role: 'user' as const, content: 'more' }],
});

describe('redacted blocks per surface', () => {
  it('stores which surface issued each blob', () => {
    expect(fromBedrock.reasoning_details![0]).toEqual({
      type: 'redacted_thinking',
      data: 'QkVEUk9DSy1CTE9C',
      surface: 'bedrock-converse',
    });
    expect(fromAnthropic.reasoning_details![0]).toEqual({
      type: 'redacted_thinking',
      data: 'ANTHROPIC-BLOB',
      surface: 'anthropic-messages',
    });
  });

  it('sends each blob back to the surface that issued it', () => {
    expect(JSON.stringify(convertToConverseMessages(history(fromBedrock), bedrock))).toContain(
      '"redactedContent":"QkVEUk9DSy1CTE9C"',
    );
    expect(JSON.stringify(convertToAnthropicMessages(history(fromAnthropic), anthropic))).toContain(
      '"data":"ANTHROPIC-BLOB"',
    );
  });

  it('does not cross: no Bedrock blob to Anthropic, no Anthropic blob to Bedrock (signed thinking still crosses)', () => {
    const toAnthropic = JSON.stringify(convertToAnthropicMessages(history(fromBedrock), anthropic));
    expect(toAnthropic).not.toContain('QkVEUk9DSy1CTE9C');
    expect(toAnthropic).toContain('SIG-B');
    const toBedrock = JSON.stringify(convertToConverseMessages(history(fromAnthropic), bedrock));
    expect(toBedrock).not.toContain('ANTHROPIC-BLOB');
    expect(toBedrock).toContain('SIG-A');
  });

  it('sends a blob whose surface was never recorded (hand-written history) as before', () => {
    const legacy = { ...fromBedrock, reasoning_details: [{ type: 'redacted_thinking' as const, data: 'LEGACY' }] };
    expect(JSON.stringify(convertToAnthropicMessages(history(legacy), anthropic))).toContain('LEGACY');
    expect(JSON.stringify(convertToConverseMessages(history(legacy), bedrock))).toContain('LEGACY');
  });
});
