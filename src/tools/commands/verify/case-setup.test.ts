import { describe, expect, it } from 'vitest';
import { fillGroup, planSetup, renameIds } from './case-setup.js';
import { fakeSign } from './fake-live-provider.test-helper.js';
import type { IssuedBlob } from './issued-blobs.js';
import { liveCase, verifyAgainst } from './verify-run.test-helper.js';

const tools = [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }];
const claudeCase = (id: string, sent: string, signed: string) =>
  liveCase(id, 'anthropic', 'claude-sonnet-4-5', {
    model: 'claude-sonnet-4-5',
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    tools,
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: sent, signature: { $mockSignature: { thinking: signed, ordinal: 0 } } },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
    ],
  });

describe('planSetup: a case declares its setup by where its placeholders sit', () => {
  it('one setup group per model turn holding a placeholder, cut before it', () => {
    const plan = planSetup(claudeCase('x', 'a', 'a').case.request.body, 'anthropic');
    expect(plan).toEqual({ kind: 'setup', list: 'messages', groups: [{ from: 1, to: 2 }] });
  });

  it('a Responses reasoning item and the items it produced are one group', () => {
    const body = {
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', id: 'rs_1', encrypted_content: { $mockEncrypted: { itemId: 'rs_1', seed: 's' } } },
        { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '{}' },
      ],
    };
    expect(planSetup(body, 'openai-responses')).toEqual({ kind: 'setup', list: 'input', groups: [{ from: 1, to: 3 }] });
  });

  it('what no live answer can give is refused with the reason', () => {
    const foreign = {
      input: [
        { role: 'user', content: 'q' },
        {
          type: 'reasoning',
          encrypted_content: { $mockEncrypted: { itemId: 'rs_1', seed: 's', issuer: 'openai-responses' } },
        },
      ],
    };
    expect(planSetup(foreign, 'kilo')).toMatchObject({
      kind: 'impossible',
      reason: expect.stringMatching(/another organization \(openai-responses\)/),
    });
    const copilot = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', reasoning_opaque: { $mockOpaque: { signer: 'copilot', kind: 'opaque', seed: 's' } } },
      ],
    };
    expect(planSetup(copilot, 'copilot')).toMatchObject({
      kind: 'impossible',
      reason: expect.stringMatching(/copilot opaque blob/),
    });
    const first = {
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 't', signature: { $mockSignature: { thinking: 't' } } }],
        },
      ],
    };
    expect(planSetup(first, 'anthropic')).toMatchObject({
      kind: 'impossible',
      reason: expect.stringMatching(/no earlier turn/),
    });
    expect(planSetup({ messages: [{ role: 'user', content: 'q' }] }, 'anthropic')).toEqual({ kind: 'none' });
  });
});

describe('fillGroup: the live answer fills the placeholders', () => {
  const signed: IssuedBlob = {
    kind: 'claude-signature',
    value: 'LIVE-SIG',
    text: 'live text',
    ordinal: 0,
    blocks: 1,
    at: 0,
  };

  it('a block that sends the text it signed gets the live text; an edited one keeps its edit', () => {
    const items = (sent: string) => [
      {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: sent, signature: { $mockSignature: { thinking: 'orig' } } }],
      },
    ];
    expect(fillGroup(items('orig'), [signed], new Map())).toEqual({
      items: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'live text', signature: 'LIVE-SIG' }] }],
    });
    expect(fillGroup(items('orig, edited'), [signed], new Map())).toEqual({
      items: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'orig, edited', signature: 'LIVE-SIG' }] }],
    });
  });

  it('a placeholder the answer cannot fill is a reason, naming what the answer held', () => {
    const items = [{ content: [{ signature: { $mockSignature: { thinking: 't', ordinal: 1 } } }] }];
    expect(fillGroup(items, [signed], new Map())).toEqual({
      reason: 'the live setup answer held no signed thinking block at reasoning ordinal 1 (it held: claude-signature)',
    });
  });

  it('a Responses item keeps its pairing: the invented reasoning id becomes the live one everywhere', () => {
    const renames = new Map<string, string>();
    const blobs: IssuedBlob[] = [
      { kind: 'responses-encrypted', value: 'ENC', itemId: 'rs_live' },
      { kind: 'responses-item-id', value: 'fc_live', type: 'function_call', reasoningId: 'rs_live', ordinal: 0 },
    ];
    const items = [
      { type: 'reasoning', id: 'rs_case', encrypted_content: { $mockEncrypted: { itemId: 'rs_case', seed: 's' } } },
      { type: 'function_call', id: { $mockItemId: { type: 'function_call', reasoningId: 'rs_case' } } },
    ];
    const filled = fillGroup(items, blobs, renames);
    expect(renameIds(filled, renames)).toEqual({
      items: [
        { type: 'reasoning', id: 'rs_live', encrypted_content: 'ENC' },
        { type: 'function_call', id: 'fc_live' },
      ],
    });
  });
});

describe('setup calls against a live Claude that signs with its own key', () => {
  it('an intact replay is set up with the live signature, and agrees with the mock', async () => {
    const v = await verifyAgainst('claude', {
      provider: 'anthropic',
      cases: [claudeCase('t-claude-intact', 'Call the tool.', 'Call the tool.')],
    });
    expect(v.run.results.map((r) => [r.outcome, r.category, r.requests])).toEqual([['compared', 'agrees', 2]]);
    expect(v.fake.requests).toHaveLength(2);
    const [setup, final] = v.fake.requests.map(
      (r) => r.body as { messages: Array<{ content: unknown }>; max_tokens: number },
    );
    // The setup call is the case cut before the signed turn, with room to finish thinking.
    expect(setup!.messages).toHaveLength(1);
    expect(setup!.max_tokens).toBe(2048);
    // The final request carries the live signature over the live text, which the live Claude verifies.
    const block = (final!.messages[1]!.content as Array<{ thinking: string; signature: string }>)[0]!;
    expect(block.signature).toBe(fakeSign(block.thinking));
    expect(block.thinking).toMatch(/^Fake thought/);
    // The smallest cap above the case's own thinking budget.
    expect(final!.max_tokens).toBe(1025);
  });

  it('an edited block keeps its edit under the live signature: both refuse, naming different rules', async () => {
    const v = await verifyAgainst('claude', {
      provider: 'anthropic',
      cases: [claudeCase('t-claude-edited', 'Call the tool (edited).', 'Call the tool.')],
    });
    const r = v.run.results[0]!;
    expect(r).toMatchObject({
      outcome: 'compared',
      category: 'wording-changed',
      rule: 'blocks-modified',
      liveRule: 'invalid-signature',
    });
    expect(r.detail).toBe('the live wording names invalid-signature, the mock answered blocks-modified');
    expect(v.report.casesWritten).toHaveLength(1);
  });

  it('a scenario replays the live signatures; in the corpus form the mock verifies them too', async () => {
    const v = await verifyAgainst('claude', { provider: 'anthropic', scenarios: ['signed-thinking-tool-loop'] });
    expect(v.run.results.map((r) => `${r.call} ${r.category ?? r.outcome}`)).toEqual([
      '0 agrees',
      '1 agrees',
      '2 agrees',
    ]);
    // Call 2 replayed both earlier thinking blocks with the signatures the live Claude issued.
    const last = v.fake.requests[2]!.body as { messages: Array<{ role: string; content: unknown }> };
    const thinking = last.messages
      .filter((m) => m.role === 'assistant')
      .flatMap((m) =>
        (m.content as Array<{ type: string; thinking?: string; signature?: string }>).filter(
          (b) => b.type === 'thinking',
        ),
      );
    expect(thinking).toHaveLength(2);
    for (const b of thinking) expect(b.signature).toBe(fakeSign(b.thinking!));
  });
});
