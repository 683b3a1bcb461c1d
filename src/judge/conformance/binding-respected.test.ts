import { describe, expect, it } from 'vitest';
import { BindingLedger, boundSignatures } from './binding-respected.js';

const answer = (signature: string) => ({
  content: [
    { type: 'thinking', thinking: 'rain all week', signature },
    { type: 'text', text: 'Yes.' },
  ],
});
const first = {
  system: [{ type: 'text', text: 'You are a travel assistant.' }],
  messages: [{ role: 'user', content: 'Umbrella?' }],
};
const replay = (system: unknown, thinking: Record<string, unknown>, binding?: string) => ({
  system,
  ...(binding ? { thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: binding } } } : {}),
  messages: [
    { role: 'user', content: 'Umbrella?' },
    { role: 'assistant', content: [thinking, { type: 'text', text: 'Yes.' }] },
    { role: 'user', content: 'And Oslo?' },
  ],
});

describe('binding-respected (the judge’s own reading of thinking bound to its prefix)', () => {
  it('a block replayed under the prefix it was produced under passes', () => {
    const ledger = new BindingLedger();
    ledger.observe(0, first, answer('sig-A'));
    const findings = ledger.judge(1, 'anthropic', 'anthropic', replay(first.system, answer('sig-A').content[0]!));
    expect(findings.map((f) => f.status)).toEqual(['pass']);
  });

  it('a changed system prompt fails, naming the provider’s refusal; drop_block makes it a warning', () => {
    const ledger = new BindingLedger();
    ledger.observe(0, first, answer('sig-A'));
    const changed = [...first.system, { type: 'text', text: 'Today is 2026-12-07.' }];
    const block = answer('sig-A').content[0]!;
    const refused = ledger.judge(
      1,
      'anthropic',
      'anthropic',
      replay(changed, block),
      'The block is bound to a different conversation.',
    );
    expect(refused.map((f) => f.status)).toEqual(['fail']);
    expect(refused[0]!.detail).toContain('the system prompt');
    expect(refused[0]!.detail).toContain('bound to a different conversation');
    expect(
      ledger.judge(1, 'anthropic', 'anthropic', replay(changed, block, 'drop_block')).map((f) => f.status),
    ).toEqual(['warn']);
  });

  it('a block a binding model wrote fails when sent to another model, under an unchanged prefix', () => {
    const ledger = new BindingLedger();
    ledger.observe(0, first, answer('sig-A'), 'claude-fable-5-1');
    const body = replay(first.system, answer('sig-A').content[0]!);
    const judged = (model: string) => ledger.judge(1, 'anthropic', 'anthropic', body, undefined, model);
    expect(judged('claude-fable-5-2').map((f) => f.status)).toEqual(['fail']);
    expect(judged('claude-fable-5-2')[0]!.detail).toContain('claude-fable-5-1 wrote it, it went to claude-fable-5-2');
    expect(judged('Claude-Fable-5-1').map((f) => f.status)).toEqual(['pass']);
  });

  it('a block whose writer does not bind (no model recorded) is judged by its prefix alone', () => {
    const ledger = new BindingLedger();
    ledger.observe(0, first, answer('sig-A'));
    const body = replay(first.system, answer('sig-A').content[0]!);
    expect(ledger.judge(1, 'anthropic', 'anthropic', body, undefined, 'claude-fable-5-2').map((f) => f.status)).toEqual(
      ['pass'],
    );
  });

  it('an edited earlier message fails too; a block the judge never saw issued is not its to judge', () => {
    const ledger = new BindingLedger();
    ledger.observe(0, first, answer('sig-A'));
    const body = replay(first.system, answer('sig-A').content[0]!);
    body.messages[0] = { role: 'user', content: 'Umbrella? (edited)' };
    expect(ledger.judge(1, 'anthropic', 'anthropic', body)[0]!.detail).toContain('message 0');
    expect(ledger.judge(1, 'anthropic', 'anthropic', replay(first.system, answer('sig-B').content[0]!))).toEqual([]);
  });

  it('reads signatures from a stream as from a body', () => {
    const sse = [
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'A' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    expect(boundSignatures(sse)).toEqual(['sig-A', 'opaque']);
    expect(boundSignatures(answer('sig-A'))).toEqual(['sig-A']);
  });
});
