import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import type { Finding } from '../../shared/findings/finding.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { mockRedactedData, mockSignThinking } from '../signing/mock-signature.js';
import { mockEncryptedContent, organizationOf } from '../signing/openai-issued-items.js';
import { isUpstreamFinding } from './gateway-upstream.js';
import { judgeRequest } from '../handlers/judge-request.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const spec = (id: string): ProviderSpec => specs.get(id)!;
const judge = (id: string, body: Record<string, unknown>): Finding[] =>
  judgeRequest(specForModel(spec(id), String(body.model)), body);

const call = { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } };
const thinking = 'Check the weather first.';
const signed = (text = thinking, signature = mockSignThinking(thinking, 0)) => ({
  type: 'reasoning.text',
  text,
  signature,
  format: 'anthropic-claude-v1',
  index: 0,
});

/** user, assistant tool call carrying `extra`, tool result: the shape every gateway rule looks at. */
const toolTurn = (model: string, extra: Record<string, unknown>, body: Record<string, unknown> = {}) => ({
  model,
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'Weather in Lisbon?' },
    { role: 'assistant', content: null, tool_calls: [call], ...extra },
    { role: 'tool', tool_call_id: 'c1', content: 'rain' },
  ],
  ...body,
});

describe('gateways apply their upstream’s replay rules, chosen by model id', () => {
  const gateways = ['openrouter', 'kilo', 'vercel-ai-gateway', 'nous-portal'];

  it('accepts Claude reasoning_details replayed verbatim', () => {
    for (const id of gateways)
      expect(judge(id, toolTurn('anthropic/claude-sonnet-4.5', { reasoning_details: [signed()] })), id).toEqual([]);
  });

  it('refuses a tampered, forged, unsigned or signature-only Claude item with the upstream’s own answer', () => {
    const cases: Record<string, [unknown, string]> = {
      // Claude issued the signature, for other text: in the latest assistant message that is "cannot be modified".
      tampered: [signed(`${thinking} (edited)`), 'blocks-modified'],
      'signature-only': [
        { type: 'reasoning.text', text: '', signature: mockSignThinking(thinking, 0), format: 'anthropic-claude-v1' },
        'blocks-modified',
      ],
      // A signature Claude never issued, or none at all: "Invalid signature".
      forged: [signed(thinking, Buffer.alloc(48, 7).toString('base64')), 'invalid-signature'],
      unsigned: [{ type: 'reasoning.text', text: thinking, format: 'anthropic-claude-v1' }, 'invalid-signature'],
    };
    for (const id of gateways) {
      for (const [name, [item, rejection]] of Object.entries(cases)) {
        const [first] = judge(id, toolTurn('anthropic/claude-sonnet-4.5', { reasoning_details: [item] }));
        expect(first, `${id} ${name}`).toMatchObject({
          rule: 'signatures-verbatim',
          rejection,
          params: { index: 1, block: 0 },
        });
        expect(first && isUpstreamFinding(first) && first.via.provider, `${id} ${name}`).toBe('anthropic');
      }
    }
  });

  it('calls an edited block in an earlier assistant message an invalid signature', () => {
    const body = toolTurn('anthropic/claude-sonnet-4.5', { reasoning_details: [signed(`${thinking} (edited)`)] });
    (body.messages as unknown[]).push(
      { role: 'assistant', content: 'done', reasoning_details: [signed('Answer.', mockSignThinking('Answer.', 0))] },
      { role: 'user', content: 'thanks' },
    );
    expect(judge('openrouter', body)[0]).toMatchObject({ rejection: 'invalid-signature', params: { index: 1 } });
  });

  it('numbers messages as the upstream does: the system message leaves, tool results merge', () => {
    const body = toolTurn('anthropic/claude-sonnet-4.5', { reasoning_details: [signed('x')] });
    (body.messages as unknown[]).push({ role: 'assistant', content: 'done' }, { role: 'user', content: 'and Porto?' });
    expect(judge('openrouter', body)[0]?.params.index).toBe(1);
  });

  it('wants the current Claude tool loop to open with reasoning when reasoning is on', () => {
    const [first] = judge('openrouter', toolTurn('anthropic/claude-sonnet-4.5', {}, { reasoning: { effort: 'high' } }));
    expect(first).toMatchObject({ rejection: 'thinking-expected', params: { index: 1, found: 'tool_use' } });
    expect(judge('openrouter', toolTurn('anthropic/claude-sonnet-4.5', {}))).toEqual([]);
  });

  it('applies DeepSeek’s must-echo rule, satisfied by reasoning, reasoning_content or text details', () => {
    expect(judge('openrouter', toolTurn('deepseek/deepseek-v4-flash', {}))[0]).toMatchObject({
      rule: 'must-echo',
      rejection: 'reasoning-content-not-passed-back',
    });
    for (const extra of [
      { reasoning: 'r' },
      { reasoning_content: 'r' },
      { reasoning_details: [{ type: 'reasoning.text', text: 'r' }] },
    ]) {
      expect(judge('openrouter', toolTurn('deepseek/deepseek-v4-flash', extra)), JSON.stringify(extra)).toEqual([]);
    }
  });

  it('applies Kimi’s and MiMo’s echo rules to their model ids', () => {
    expect(judge('openrouter', toolTurn('moonshotai/kimi-k2-thinking', {}))[0]).toMatchObject({ rule: 'must-echo' });
    expect(judge('openrouter', toolTurn('xiaomi/mimo-v2-flash', {}))[0]).toMatchObject({ rule: 'must-echo' });
  });

  it('wants Gemini 3’s encrypted detail on the current turn’s tool calls, not Gemini 2.5’s', () => {
    const [first] = judge('openrouter', toolTurn('google/gemini-3-pro-preview', {}));
    expect(first).toMatchObject({
      rejection: 'missing-thought-signature',
      params: { field: 'get_weather', position: 2 },
    });
    expect(first && isUpstreamFinding(first) && first.via.gatewayRejection).toBe('gemini-reasoning-details-required');
    expect(
      judge(
        'openrouter',
        toolTurn('google/gemini-3-pro-preview', {
          reasoning_details: [{ type: 'reasoning.encrypted', data: 'sig', format: 'google-gemini-v1' }],
        }),
      ),
    ).toEqual([]);
    expect(judge('openrouter', toolTurn('google/gemini-2.5-pro', {}))).toEqual([]);
  });

  it('leaves models with no upstream rule alone', () => {
    expect(judge('openrouter', toolTurn('openai/gpt-5', {}))).toEqual([]);
  });
});

describe('gateways reaching OpenAI verify encrypted reasoning for their own organization', () => {
  const encrypted = (data: string) => ({
    reasoning_details: [{ type: 'reasoning.encrypted', id: 'rs_0a1b', data, format: 'openai-responses-v1', index: 0 }],
  });
  const message = (f: Finding) =>
    (fillRejection(spec('openai-responses').rejections[f.rejection]!, f.params).body as { error: { message: string } })
      .error.message;

  it('accepts a blob the gateway itself issued, and refuses one issued through another provider with OpenAI’s organization wording', () => {
    for (const id of ['openrouter', 'kilo']) {
      const own = mockEncryptedContent('rs_0a1b', 's', organizationOf(id));
      expect(judge(id, toolTurn('openai/gpt-5.2-codex', encrypted(own))), id).toEqual([]);
      const [finding, ...rest] = judge(
        id,
        toolTurn(
          'openai/gpt-5.2-codex',
          encrypted(mockEncryptedContent('rs_0a1b', 's', organizationOf('openai-responses'))),
        ),
      );
      expect(rest).toEqual([]);
      expect(isUpstreamFinding(finding!) && finding.via.provider).toBe('openai-responses');
      expect(message(finding!)).toBe(
        'The encrypted content for item rs_0a1b could not be verified. Reason: Encrypted content organization_id did not match the target organization.',
      );
      // A blob no provider issued cannot be decrypted at all; Claude and Gemini models never see the item.
      expect(
        judge(id, toolTurn('openai/gpt-5.2-codex', encrypted('gAAAAABvdGhlci1vcmdhbml6YXRpb24='))).map(
          (f) => f.rejection,
        ),
      ).toEqual(['encrypted-content-not-verified']);
      expect(judge(id, toolTurn('anthropic/claude-sonnet-4.5', encrypted(own)))).toEqual([]);
    }
  });
});

describe('a Claude message replayed through a gateway is judged as one message, as Claude does', () => {
  // Claude signs each block for its place among the message's reasoning blocks (mock-signature.ts
  // IssuedPlace), so a message that held a thinking and a redacted block verifies only whole.
  const two = { blocks: 2 };
  const text = (t: string, ordinal: number) => ({
    type: 'reasoning.text',
    text: t,
    signature: mockSignThinking(t, ordinal, undefined, two),
    format: 'anthropic-claude-v1',
    index: ordinal,
  });
  const redacted = (ordinal: number) => ({
    type: 'reasoning.encrypted',
    data: mockRedactedData('opaque', ordinal, undefined, two),
    format: 'anthropic-claude-v1',
    index: ordinal,
  });
  const claudeMessage = (f: Finding) =>
    (fillRejection(spec('anthropic').rejections[f.rejection]!, f.params).body as { error: { message: string } }).error
      .message;
  const model = 'anthropic/claude-sonnet-4.5';

  it('accepts both blocks replayed whole and in order (a block-by-block reading refused each of them)', () => {
    expect(judge('openrouter', toolTurn(model, { reasoning_details: [text(thinking, 0), redacted(1)] }))).toEqual([]);
    expect(
      judge('openrouter', toolTurn(model, { reasoning_details: [text(thinking, 0), text('Then answer.', 1)] })),
    ).toEqual([]);
  });

  it('names the place a redacted sibling stood when it was dropped after an intact thinking block (BerriAI/litellm#25375: content 1)', () => {
    const [finding, ...rest] = judge('openrouter', toolTurn(model, { reasoning_details: [text(thinking, 0)] }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      rule: 'signatures-verbatim',
      rejection: 'blocks-modified',
      params: { index: 1, block: 1, path: 'messages.2.reasoning_details.1' },
    });
    expect(isUpstreamFinding(finding!) && finding.via.provider).toBe('anthropic');
    expect(claudeMessage(finding!)).toBe(
      'messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.',
    );
  });

  it('refuses the block left when the first of two signed blocks was dropped (it now stands at another place)', () => {
    const [finding] = judge('openrouter', toolTurn(model, { reasoning_details: [text('Then answer.', 1)] }));
    expect(finding).toMatchObject({
      rejection: 'blocks-modified',
      params: { index: 1, block: 0, path: 'messages.2.reasoning_details.0' },
    });
    const [alone] = judge('openrouter', toolTurn(model, { reasoning_details: [redacted(1)] }));
    expect(alone).toMatchObject({ rejection: 'blocks-modified', params: { block: 0 } });
  });

  it('calls a dropped sibling in an earlier assistant message an invalid signature, as for an edited block there', () => {
    const body = toolTurn(model, { reasoning_details: [text(thinking, 0)] });
    (body.messages as unknown[]).push({ role: 'assistant', content: 'done' }, { role: 'user', content: 'thanks' });
    expect(judge('openrouter', body)[0]).toMatchObject({
      rejection: 'invalid-signature',
      params: { index: 1, block: 1 },
    });
  });

  it('counts only the items that go up: another format’s item between Claude’s does not move them', () => {
    const gemini = { type: 'reasoning.encrypted', data: 'c2ln', format: 'google-gemini-v1', index: 1 };
    expect(
      judge('openrouter', toolTurn(model, { reasoning_details: [text(thinking, 0), gemini, redacted(1)] })),
    ).toEqual([]);
  });
});

describe('an unsigned Claude text item through a gateway: refused or silently dropped, sources disagree', () => {
  const model = 'anthropic/claude-sonnet-4.5';
  it('is still refused with Claude’s answer, but reported as contested, citing both sides', () => {
    const [finding] = judge(
      'openrouter',
      toolTurn(model, {
        reasoning_details: [{ type: 'reasoning.text', text: thinking, format: 'anthropic-claude-v1', index: 0 }],
      }),
    );
    expect(finding).toMatchObject({ rejection: 'invalid-signature', contested: true });
    expect(finding!.sources).toEqual(
      expect.arrayContaining([
        'https://github.com/OpenRouterTeam/ai-sdk-provider/issues/423',
        'https://github.com/earendil-works/pi/issues/9534',
      ]),
    );
  });

  it('keeps a signed item that fails a plain refusal: only the unsigned case is disputed', () => {
    const [tampered] = judge('openrouter', toolTurn(model, { reasoning_details: [signed(`${thinking} (edited)`)] }));
    expect(tampered).toMatchObject({ rejection: 'blocks-modified' });
    expect(tampered!.contested).toBeUndefined();
  });

  it('leaves a gateway whose spec does not dispute it strict', () => {
    const [finding] = judge(
      'kilo',
      toolTurn(model, {
        reasoning_details: [{ type: 'reasoning.text', text: thinking, format: 'anthropic-claude-v1', index: 0 }],
      }),
    );
    expect(finding).toMatchObject({ rejection: 'invalid-signature' });
    expect(finding!.contested).toBeUndefined();
  });
});
