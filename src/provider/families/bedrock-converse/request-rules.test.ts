import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { fromBedrockConverseResponse } from '../../../engine/families/bedrock-converse/from-response.js';
import { renderBedrockConverseAnswer } from './render-answer.js';
import { toBedrockConverseRequest } from '../../../engine/families/bedrock-converse/to-request.js';
import type { History } from '../../../shared/history/history.js';
import { defaultProvidersDir, loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { ReplayPolicy, RoutePolicy } from '../../../shared/route-table/route-table.js';
import { fillRejection } from '../../handlers/fill-rejection.js';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import { judgeBedrockConverse } from './request-rules.js';
import { judgeRequest } from '../../handlers/judge-request.js';
import { specForModel } from '../../../shared/provider-specs/spec-for-model.js';

const load = (id: string) => loadProviderSpec(`${defaultProvidersDir()}/${id}.json`);
const claude = load('bedrock-claude');
const r1 = load('bedrock-deepseek-r1');
const oss = load('bedrock-gpt-oss');

const policyFor = (spec: ProviderSpec, replayPolicy: ReplayPolicy): RoutePolicy => ({
  routeId: 'bedrock',
  label: 'Bedrock',
  family: 'bedrock-converse',
  tier: 'standard',
  fields: ['reasoning_details'],
  flags: {},
  replayPolicy,
  target: { provider: 'bedrock', host: 'bedrock-runtime.us-east-1.amazonaws.com', model: spec.target.model },
});

const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];

/** Three calls with answers rendered for `spec`: a finished exchange, a new question, a tool loop in progress. */
function conversation(spec: ProviderSpec, replayPolicy: ReplayPolicy, redacted = false): Record<string, unknown> {
  const history: History = { messages: [{ role: 'user', content: 'first' }] };
  const answer = (n: number, a: Parameters<typeof renderBedrockConverseAnswer>[0]) =>
    history.messages.push(
      fromBedrockConverseResponse(renderBedrockConverseAnswer(a, { spec, call: n, scenario: 'judge' }).body).message,
    );
  answer(0, { reasoning: 'easy one', redacted, content: 'done' });
  history.messages.push({ role: 'user', content: 'second' });
  answer(1, {
    reasoning: 'need a lookup',
    tool_calls: [{ id: 'tu_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
  });
  history.messages.push({ role: 'tool', tool_call_id: 'tu_1', content: 'found' });
  return toBedrockConverseRequest(history, policyFor(spec, replayPolicy), { tools }).body;
}

type Wire = {
  role: string;
  content: Record<string, { reasoningText?: Record<string, unknown>; redactedContent?: string }>[];
}[];
const reasoningAt = (body: Record<string, unknown>, i: number) =>
  (body.messages as Wire)[i]!.content[0]!.reasoningContent!;
const message = (spec: ProviderSpec, body: Record<string, unknown>) => {
  const f = judgeRequest(spec, body)[0]!;
  return JSON.stringify(fillRejection(spec.rejections[f.rejection]!, f.params).body);
};

describe('judgeBedrockConverse', () => {
  it('signed policy on Claude: a faithful replay (signatures and redactedContent) is accepted', () => {
    expect(judgeRequest(claude, conversation(claude, 'signed'))).toEqual([]);
    expect(judgeRequest(claude, conversation(claude, 'signed', true))).toEqual([]);
  });

  test('signed policy on Claude: any one signature character changed is rejected', () => {
    fc.assert(
      fc.property(fc.nat(), (at) => {
        const body = conversation(claude, 'signed');
        const rt = reasoningAt(body, 3).reasoningText!;
        const sig = rt.signature as string;
        const i = at % sig.replace(/=+$/, '').length;
        rt.signature = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1);
        expect(judgeBedrockConverse(claude, body).map((f) => [f.rejection, f.params.index])).toEqual([
          ['invalid-signature', 3],
        ]);
      }),
    );
  });

  it('Claude: a reasoningText without signature gets Bedrock\'s "Field required" wording', () => {
    const body = conversation(claude, 'signed');
    delete reasoningAt(body, 1).reasoningText!.signature;
    expect(message(claude, body)).toContain(
      'The model returned the following errors: messages.1.content.0.thinking.signature: Field required',
    );
  });

  it('Claude: unsigned policy sent to Claude fails (the tool loop keeps no signature)', () => {
    expect(judgeBedrockConverse(claude, conversation(claude, 'unsigned')).map((f) => f.rejection)).toEqual([
      'missing-signature',
      'missing-signature',
    ]);
  });

  it('Claude: strip policy sent to Claude is accepted before the loop but the loop still needs its signature', () => {
    expect(
      judgeBedrockConverse(claude, conversation(claude, 'strip')).map((f) => [f.rejection, f.params.index]),
    ).toEqual([['missing-signature', 3]]);
  });

  it('Claude: a tool loop whose assistant turn lost its reasoning gets "Expected thinking ... found tool_use"', () => {
    const body = conversation(claude, 'signed');
    (body.messages as Wire)[3]!.content.shift();
    expect(message(claude, body)).toContain(
      'messages.3.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.',
    );
  });

  it('Claude: edited redactedContent is invalid data, even in the latest assistant message (microsoft/vscode#320196)', () => {
    const body = conversation(claude, 'signed', true);
    body.messages = (body.messages as Wire)
      .slice(0, 2)
      .concat([{ role: 'user', content: [{ text: 'more' }] }] as unknown as Wire);
    const rc = reasoningAt(body, 1);
    rc.redactedContent = rc.redactedContent!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(judgeBedrockConverse(claude, body).map((f) => f.rejection)).toEqual(['invalid-redacted']);
  });

  it('Claude: a redactedContent block dropped after its intact reasoningText "cannot be modified", where the dropped block stood (litellm#25375)', () => {
    const thinking = 'Visible part.';
    const answer = [
      {
        reasoningContent: {
          reasoningText: { text: thinking, signature: mockSignThinking(thinking, 0, undefined, { blocks: 2 }) },
        },
      },
      { reasoningContent: { redactedContent: mockRedactedData('r', 1, undefined, { blocks: 2 }) } },
      { toolUse: { toolUseId: 't3', name: 'bash', input: {} } },
    ];
    const body = (content: unknown[]) => ({
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
      messages: [
        { role: 'user', content: [{ text: 'go' }] },
        { role: 'assistant', content },
        { role: 'user', content: [{ toolResult: { toolUseId: 't3', content: [{ text: 'ok' }] } }] },
      ],
    });
    expect(judgeRequest(claude, body(answer))).toEqual([]);
    expect(message(claude, body([answer[0], answer[2]]))).toContain(
      'The model returned the following errors: messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified.',
    );
  });

  it("strip policy on DeepSeek R1: accepted; unsigned replay of earlier turns is refused verbatim (signed replay sends none of R1's unsigned text)", () => {
    expect(judgeRequest(r1, conversation(r1, 'strip'))).toEqual([]);
    for (const wrong of ['unsigned', 'signed'] as const) {
      const body = conversation(r1, wrong);
      expect(judgeBedrockConverse(r1, body).map((f) => [f.rejection, f.params.index])).toEqual(
        wrong === 'unsigned' ? [['reasoning-not-accepted', 1]] : [],
      );
    }
    expect(message(r1, conversation(r1, 'unsigned'))).toContain(
      'User messages cannot contain reasoning content. Please remove the reasoning content and try again.',
    );
  });

  it('unsigned policy on gpt-oss: accepted; a replayed signature field is refused, even an empty one', () => {
    expect(judgeRequest(oss, conversation(oss, 'unsigned'))).toEqual([]);
    const body = conversation(oss, 'unsigned');
    reasoningAt(body, 1).reasoningText!.signature = '';
    expect(message(oss, body)).toContain(
      "This model doesn't support the reasoningContent.reasoningText.signature field. Remove reasoningContent.reasoningText.signature and try again.",
    );
  });

  it("a required member null or absent gets Converse's own validation wording, on every Bedrock model (LibreChat-AI/agents#248, langchainjs#11164)", () => {
    const nullText = conversation(claude, 'signed');
    reasoningAt(nullText, 1).reasoningText!.text = null;
    const expected =
      "1 validation error detected: Value at 'messages.1.member.content.0.member.reasoningContent.reasoningText.text' failed to satisfy constraint: Member must not be null";
    expect(message(claude, nullText)).toContain(expected);
    const signatureOnly = conversation(claude, 'signed');
    delete reasoningAt(signatureOnly, 3).reasoningText!.text;
    expect(message(claude, signatureOnly)).toContain(expected.replace('messages.1.', 'messages.3.'));
    for (const spec of [r1, oss]) {
      const body = conversation(spec, 'strip');
      const tool = (body.messages as Wire)[3]!.content.find((b) => b.toolUse) as unknown as {
        toolUse: Record<string, unknown>;
      };
      tool.toolUse.toolUseId = null;
      expect(message(spec, body)).toMatch(
        /Value at 'messages\.3\.member\.content\.\d\.member\.toolUse\.toolUseId' failed to satisfy constraint: Member must not be null/,
      );
    }
  });

  it("a message left with no content block is refused in Converse's words, on every Bedrock model (vercel/ai#15248, claude-code#13709)", () => {
    for (const spec of [claude, r1, oss]) {
      const body = conversation(spec, 'strip');
      (body.messages as Wire)[1]!.content = [];
      expect(message(spec, body)).toContain(
        'The content field in the Message object at messages.1 is empty. Add a ContentBlock object to the content field and try again.',
      );
    }
  });

  it("a blank text block is refused in Converse's words; beside reasoning the refusal is contested (vercel/ai#6255 vs #14175)", () => {
    const body = conversation(claude, 'signed');
    (body.messages as Wire)[3]!.content.splice(1, 0, { text: '\n\n' } as never);
    const [finding] = judgeRequest(claude, body);
    expect(finding).toMatchObject({ rejection: 'blank-text', contested: true, params: { index: 3, block: 1 } });
    const plain = conversation(oss, 'strip');
    (plain.messages as Wire)[3]!.content.unshift({ text: ' ' } as never);
    expect(judgeRequest(oss, plain)[0]).toMatchObject({ rejection: 'blank-text', params: { index: 3, block: 0 } });
    expect(judgeRequest(oss, plain)[0]!.contested).toBeUndefined();
    expect(message(oss, plain)).toContain(
      'The text field in the ContentBlock object at messages.3.content.0 is blank. Add text to the text field, and try again.',
    );
  });

  // Bedrock's preserved-thinking page documents the binding controls for Claude Fable 5.1 (read 2026-12-07):
  // https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-thinking-block-binding.md
  it('Claude Fable 5.1: thinking.block_binding in additionalModelRequestFields is taken, both behaviours', () => {
    const fable = specForModel(claude, 'global.anthropic.claude-fable-5-1');
    for (const behaviour of ['error', 'drop_block']) {
      const thinking = { type: 'adaptive', block_binding: { prefix_mismatch_behavior: behaviour } };
      const body = { ...conversation(claude, 'signed'), additionalModelRequestFields: { thinking } };
      expect(judgeRequest(fable, body)).toEqual([]);
    }
  });

  it('an unknown key inside reasoningContent is a schema rejection first', () => {
    const body = conversation(claude, 'signed');
    (reasoningAt(body, 1) as Record<string, unknown>).text = 'x';
    expect(judgeRequest(claude, body)[0]!.rejection).toBe('unknown-parameter');
  });
});
