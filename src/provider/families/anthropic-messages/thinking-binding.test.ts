import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpec, defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { judgeRequest } from '../../handlers/judge-request.js';
import { fillRejection } from '../../handlers/fill-rejection.js';
import { mockSignatureBinding, verifyMockThinkingSignature } from '../../signing/mock-signature.js';
import { renderAnthropicMessagesAnswer } from './render-answer.js';

/**
 * Thinking bound to its conversation, as the Anthropic mock enforces it: Fable 5.1 binds the signature it issues to the
 * prefix before the block and to the model; Opus 5 does not bind; Mythos 5.1 records and lets through.
 */
const anthropic = loadProviderSpec(`${defaultProvidersDir()}/anthropic.json`);
const REFUSAL = 'thinking-bound-to-different-conversation';
type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };

const tool = { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: {} } };
const firstRequest = (model: string, extra: Record<string, unknown> = {}): Body => ({
  model,
  max_tokens: 4096,
  system: 'You are a careful agent.',
  tools: [tool],
  thinking: { type: 'adaptive' },
  messages: [{ role: 'user', content: 'Read the file and sum it.' }],
  ...extra,
});

/** The answer the mock gives to `request`, as the assistant turn a client appends. */
function answerTo(spec: ProviderSpec, request: Body, call = 0, reasoning = 'The user wants a sum.') {
  const rendered = renderAnthropicMessagesAnswer(
    { reasoning, content: 'Reading it.' },
    { spec, call, scenario: 'binding-test', model: request.model as string, request },
  );
  return rendered;
}

/** The second request: the first, the answer appended whole, then a new user turn. */
function replay(spec: ProviderSpec, request: Body): Body {
  const answer = answerTo(spec, request).body as { content: unknown[] };
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: answer.content },
      { role: 'user', content: 'Go on.' },
    ],
  };
}

const refusals = (body: Body, spec = anthropic) => judgeRequest(spec, body).filter((f) => f.rejection === REFUSAL);

describe('thinking bound to its conversation (Anthropic mock)', () => {
  it('Fable 5.1 binds the signature it issues; the unbound part still verifies as the thinking it signs', () => {
    const answer = answerTo(anthropic, firstRequest('claude-fable-5-1')).body as { content: Record<string, string>[] };
    const thinking = answer.content[0]!;
    expect(mockSignatureBinding(thinking.signature)).toBeDefined();
    expect(verifyMockThinkingSignature(thinking.thinking!, 0, thinking.signature)).toBe(true);
  });

  it('Opus 5 does not bind, and a synthesized answer (no request) is not bound either', () => {
    const opus = answerTo(anthropic, firstRequest('claude-opus-5')).body as { content: Record<string, string>[] };
    expect(mockSignatureBinding(opus.content[0]!.signature)).toBeUndefined();
    const scripted = renderAnthropicMessagesAnswer(
      { reasoning: 'x', content: 'y' },
      { spec: anthropic, call: 0, scenario: 's', model: 'claude-fable-5-1' },
    ).body as { content: Record<string, string>[] };
    expect(mockSignatureBinding(scripted.content[0]!.signature)).toBeUndefined();
  });

  it('the same conversation sent back is accepted', () => {
    expect(judgeRequest(anthropic, replay(anthropic, firstRequest('claude-fable-5-1')))).toEqual([]);
  });

  it('a changed system prompt is refused with the documented wording, naming the block', () => {
    const body = { ...replay(anthropic, firstRequest('claude-fable-5-1')), system: 'You are a terse agent.' };
    const [finding] = refusals(body);
    expect(finding).toMatchObject({
      rule: 'binding-respected',
      params: { index: 1, block: 0, reason: 'prefix_binding_mismatch' },
    });
    const answer = fillRejection(anthropic.rejections[REFUSAL]!, finding!.params);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(
      'messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation.',
    );
  });

  it('a change of model within the family is a model binding mismatch', () => {
    const body = { ...replay(anthropic, firstRequest('claude-fable-5-1')), model: 'claude-fable-5-2' };
    expect(refusals(body)[0]?.params.reason).toBe('model_binding_mismatch');
  });

  it('Opus 5 takes the Fable block after a prefix change: it does not check bindings', () => {
    const body = { ...replay(anthropic, firstRequest('claude-fable-5-1')), system: 'Other.', model: 'claude-opus-5' };
    expect(refusals(body)).toEqual([]);
  });

  it('drop_block: no refusal, and the answer lists the dropped block in input_transformations (body and stream)', () => {
    const controls = { thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } } };
    const body = { ...replay(anthropic, firstRequest('claude-fable-5-1', controls)), system: 'Changed.' };
    expect(refusals(body)).toEqual([]);
    const rendered = answerTo(anthropic, body, 1);
    const expected = [{ type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' }];
    expect((rendered.body as Record<string, unknown>).input_transformations).toEqual(expected);
    const start = JSON.parse(rendered.stream[0]!.data) as { message: Record<string, unknown> };
    expect(start.message.input_transformations).toEqual(expected);
  });

  it('with the controls and nothing to drop the answer reports []; without the controls it reports nothing', () => {
    const controls = { thinking: { type: 'adaptive', block_binding: {} } };
    const kept = replay(anthropic, firstRequest('claude-fable-5-1', controls));
    expect((answerTo(anthropic, kept, 1).body as Record<string, unknown>).input_transformations).toEqual([]);
    const plain = replay(anthropic, firstRequest('claude-fable-5-1'));
    expect(answerTo(anthropic, plain, 1).body).not.toHaveProperty('input_transformations');
  });

  it('a failing block takes the rest of its turn’s consecutive thinking blocks with it', () => {
    const controls = { thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } } };
    const body = replay(anthropic, firstRequest('claude-fable-5-1', controls));
    const turn = body.messages[1]!.content as Record<string, unknown>[];
    // A second thinking block after the bound one, carrying no binding of its own.
    const unbound = renderAnthropicMessagesAnswer(
      { reasoning: 'more', content: 'z' },
      { spec: anthropic, call: 9, scenario: 'u' },
    ).body as { content: Record<string, unknown>[] };
    body.messages[1] = { role: 'assistant', content: [turn[0], unbound.content[0], ...turn.slice(1)] };
    const rendered = answerTo(anthropic, { ...body, system: 'Changed.' }, 1);
    expect(
      (rendered.body as { input_transformations: { path: string }[] }).input_transformations.map((t) => t.path),
    ).toEqual(['messages.1.content.0', 'messages.1.content.1']);
  });

  it('Mythos 5.1 records the binding and lets a failing block through, reported as thinking_mismatch_allowed', () => {
    const controls = { thinking: { type: 'adaptive', block_binding: {} } };
    const body = { ...replay(anthropic, firstRequest('claude-mythos-5-1', controls)), system: 'Changed.' };
    expect(refusals(body)).toEqual([]);
    expect((answerTo(anthropic, body, 1).body as Record<string, unknown>).input_transformations).toEqual([
      { type: 'thinking_mismatch_allowed', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
    ]);
  });

  it('a binding moved onto another signature is not read as a binding', () => {
    const a = answerTo(anthropic, firstRequest('claude-fable-5-1')).body as { content: Record<string, string>[] };
    const b = answerTo(anthropic, firstRequest('claude-fable-5-1', { system: 'Other.' }), 0, 'Another thought.')
      .body as {
      content: Record<string, string>[];
    };
    const bytesA = Buffer.from(a.content[0]!.signature!, 'base64');
    const bytesB = Buffer.from(b.content[0]!.signature!, 'base64');
    // B's signature with A's trailer: the binding MAC covers the signature it was written for.
    const spliced = Buffer.concat([bytesB.subarray(0, 48), bytesA.subarray(48)]).toString('base64');
    expect(mockSignatureBinding(spliced)).toBeUndefined();
  });

  it('what the model does not read differently keeps the binding: string or block content, cache breakpoints, omitted earlier thinking', () => {
    const first = firstRequest('claude-fable-5-1');
    const second = replay(anthropic, first);
    const third = replay(anthropic, second);
    const variants: Body[] = [
      {
        ...third,
        messages: third.messages.map((m, i) =>
          i === 0 ? { role: 'user', content: [{ type: 'text', text: 'Read the file and sum it.' }] } : m,
        ),
      },
      { ...third, system: [{ type: 'text', text: 'You are a careful agent.', cache_control: { type: 'ephemeral' } }] },
      {
        ...third,
        messages: third.messages.map((m, i) =>
          i === 1
            ? {
                role: 'assistant',
                content: (m.content as Record<string, unknown>[]).filter((b) => b.type !== 'thinking'),
              }
            : m,
        ),
      },
    ];
    for (const body of variants) expect(refusals(body)).toEqual([]);
  });

  it('any change to the system prompt, the tools or an earlier message text is refused (generated edits)', () => {
    const base = replay(anthropic, replay(anthropic, firstRequest('claude-fable-5-1')));
    fc.assert(
      fc.property(
        fc.constantFrom('system', 'tools', 'earlier-user'),
        fc.string({ minLength: 1, maxLength: 12 }),
        (where, extra) => {
          const body: Body = structuredClone(base);
          if (where === 'system') body.system = `${body.system as string}${extra}`;
          else if (where === 'tools') body.tools = [{ ...tool, description: `${tool.description}${extra}` }];
          else body.messages[0] = { role: 'user', content: `Read the file and sum it.${extra}` };
          const found = refusals(body);
          expect(found.length).toBe(1);
          // The first bound block after the change is the one named.
          expect(found[0]!.params.index).toBe(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
