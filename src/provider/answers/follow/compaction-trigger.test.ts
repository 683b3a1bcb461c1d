import { describe, expect, it } from 'vitest';
import { loadProviderSpec, defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import { passesCompactionTrigger } from './compaction-trigger.js';
import { followAnswer } from './follow-answer.js';

const anthropic = loadProviderSpec(`${defaultProvidersDir()}/anthropic.json`);
const asking = (value: number | undefined, messages: unknown[]) => ({
  model: 'claude-opus-5',
  max_tokens: 1024,
  context_management: {
    edits: [{ type: 'compact_20260112', ...(value === undefined ? {} : { trigger: { type: 'input_tokens', value } }) }],
  },
  messages,
});
const long = (chars: number) => [{ role: 'user', content: 'x'.repeat(chars) }];

describe('server compaction past its trigger, in follow mode', () => {
  it('compacts at the trigger the request set, and not below it', () => {
    expect(passesCompactionTrigger('anthropic-messages', asking(50_000, long(200_100)))).toBe(true);
    expect(passesCompactionTrigger('anthropic-messages', asking(50_000, long(190_000)))).toBe(false);
  });

  it('defaults to 150,000 tokens, and never compacts a request that did not ask', () => {
    expect(passesCompactionTrigger('anthropic-messages', asking(undefined, long(400_000)))).toBe(false);
    expect(passesCompactionTrigger('anthropic-messages', asking(undefined, long(600_100)))).toBe(true);
    const { context_management: _, ...plain } = asking(50_000, long(400_000));
    expect(passesCompactionTrigger('anthropic-messages', plain)).toBe(false);
  });

  it('counts from the newest compaction block on, as the API reads the request', () => {
    const compacted = [
      ...long(400_000),
      { role: 'assistant', content: [{ type: 'compaction', content: 's', encrypted_content: 'e' }] },
      { role: 'user', content: 'next' },
    ];
    expect(passesCompactionTrigger('anthropic-messages', asking(50_000, compacted))).toBe(false);
  });

  it('the follow answer opens with a compaction block the mock signed', () => {
    const made = followAnswer(anthropic, asking(50_000, long(200_100)), 0, 1)!;
    const content = (made.rendered.body as { content: Array<{ type: string }> }).content;
    expect(content[0]!.type).toBe('compaction');
    const below = followAnswer(anthropic, asking(50_000, long(1000)), 0, 1)!;
    expect((below.rendered.body as { content: Array<{ type: string }> }).content[0]!.type).not.toBe('compaction');
  });
});
