import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { fromOpenAIResponsesResponse } from '../../../engine/families/openai-responses/from-response.js';
import { renderOpenAIResponsesAnswer } from './render-answer.js';
import type { History } from '../../../shared/history/history.js';
import { loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import { specForModel } from '../../../shared/provider-specs/spec-for-model.js';
import { specsDir } from '../../../shared/project-root.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import { fillRejection } from '../../handlers/fill-rejection.js';
import { mockEncryptedContent, organizationOf } from '../../signing/openai-issued-items.js';
import { judgeRequest } from '../../handlers/judge-request.js';

const spec = loadProviderSpec(`${specsDir()}/providers/openai-responses.json`);
const policy = resolveRoute(loadRouteTable(), { provider: 'openai-responses', host: 'api.openai.com', model: 'gpt-5' });

function body(): { store: boolean; input: Array<Record<string, unknown>> } {
  const answer = fromOpenAIResponsesResponse(
    renderOpenAIResponsesAnswer(
      {
        reasoning: 'List first.',
        tool_calls: [{ id: 'call_ls', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
      { spec, call: 0, scenario: 'judge' },
    ).body,
  );
  const history: History = {
    messages: [
      { role: 'user', content: 'What is here?' },
      answer.message,
      { role: 'tool', tool_call_id: 'call_ls', content: 'a.txt' },
    ],
  };
  return structuredClone(replayForRoute(history, policy).body) as never;
}
const text = (findings: ReturnType<typeof judgeRequest>) => {
  const f = findings[0]!;
  return (fillRejection(spec.rejections[f.rejection]!, f.params).body as { error: { message: string } }).error.message;
};

describe('openai-responses judge', () => {
  it('accepts reasoning replayed with the encrypted content it issued, before its function call', () => {
    expect(judgeRequest(spec, body())).toEqual([]);
  });

  it('refuses tampered encrypted content, naming the item', () => {
    const b = body();
    const rs = b.input[1]!;
    rs.encrypted_content = String(rs.encrypted_content).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(text(judgeRequest(spec, b))).toBe(
      `The encrypted content for item ${String(rs.id)} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
    );
  });

  test('refuses encrypted content with any one character changed', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 63 }), (at, shift) => {
        const b = body();
        const rs = b.input[1]!;
        const blob = String(rs.encrypted_content);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        const i = at % blob.length;
        const c = blob[i]!;
        rs.encrypted_content =
          blob.slice(0, i) + (c === '=' ? 'A' : alphabet[(alphabet.indexOf(c) + shift) % 64]) + blob.slice(i + 1);
        expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['encrypted-content-not-verified']);
      }),
    );
  });

  it('refuses encrypted content moved to another item id', () => {
    const b = body();
    b.input[1]!.id = 'rs_0000';
    expect(judgeRequest(spec, b).map((f) => f.rejection)).toContain('encrypted-content-not-verified');
  });

  it('answers 404 for a reasoning item without encrypted content when nothing is stored', () => {
    const b = body();
    delete b.input[1]!.encrypted_content;
    const findings = judgeRequest(spec, b);
    expect(fillRejection(spec.rejections[findings[0]!.rejection]!, findings[0]!.params).status).toBe(404);
    expect(text(findings)).toBe(
      `Item with id '${String(b.input[1]!.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
    );
  });

  it('refuses an fc_ item sent without the reasoning item that produced it', () => {
    const b = body();
    const [rs] = b.input.splice(1, 1);
    expect(text(judgeRequest(spec, b))).toBe(
      `Item '${String(b.input[1]!.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${String(rs!.id)}'.`,
    );
  });

  it('takes an item_reference to a stored reasoning item as that item, and 404s one never stored', () => {
    const stored = renderOpenAIResponsesAnswer(
      {
        reasoning: 'List first.',
        tool_calls: [{ id: 'call_ls', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
      { spec, call: 0, scenario: 'judge', request: { model: 'gpt-5', input: [], store: true } },
    ).body as { output: Array<Record<string, unknown>> };
    const [rs, call] = stored.output;
    const input = (ref: unknown) => [
      { role: 'user', content: 'What is here?' },
      { type: 'item_reference', id: ref },
      { ...call, type: 'function_call' },
      { type: 'function_call_output', call_id: 'call_ls', output: 'a.txt' },
    ];
    expect(judgeRequest(spec, { model: 'gpt-5', input: input(rs!.id), store: true })).toEqual([]);
    expect(judgeRequest(spec, { model: 'gpt-5', input: input(rs!.id) })).toEqual([]);
    // The same reference under store false, or to an item whose response was not stored: never found.
    expect(text(judgeRequest(spec, { model: 'gpt-5', input: input(rs!.id), store: false }))).toBe(
      `Item with id '${String(rs!.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
    );
    const unstored = body().input[1]!.id;
    expect(judgeRequest(spec, { model: 'gpt-5', input: input(unstored), store: true })[0]).toMatchObject({
      rejection: 'item-not-found',
      params: { path: unstored },
    });
    // An id the mock never issued is taken as found; its fc_ then pairs with nothing it needs.
    const b = body();
    b.input[1] = { type: 'item_reference', id: 'rs_other' };
    expect(judgeRequest(spec, { ...b, store: true }).map((f) => f.rejection)).toEqual([
      'function-call-without-reasoning',
    ]);
  });

  it('honours include and store: no encrypted_content unless included, and a bare reasoning item needs a stored one', () => {
    const answer = (request: Record<string, unknown>) =>
      renderOpenAIResponsesAnswer(
        {
          reasoning: 'Look.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        },
        { spec, call: 0, scenario: 'judge', request: { model: 'gpt-5', input: [], ...request } },
      ).body as { store: boolean; output: Array<Record<string, unknown>> };
    const bare = answer({ store: false });
    expect(bare.store).toBe(false);
    expect(bare.output[0]).not.toHaveProperty('encrypted_content');
    expect(answer({ store: false, include: ['reasoning.encrypted_content'] }).output[0]!.encrypted_content).toEqual(
      expect.any(String),
    );
    expect(answer({}).store).toBe(true);
    // Replaying the bare item (as the AI SDK does, encrypted_content null) is looked up by id and not found.
    const replay = (from: typeof bare, store?: boolean) => ({
      model: 'gpt-5',
      ...(store === undefined ? {} : { store }),
      input: [
        { role: 'user', content: 'What is here?' },
        { ...from.output[0], encrypted_content: null },
        from.output[1],
        { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
      ],
    });
    expect(judgeRequest(spec, replay(bare, false)).map((f) => f.rejection)).toEqual(['item-not-found']);
    expect(judgeRequest(spec, replay(bare)).map((f) => f.rejection)).toEqual(['item-not-found']);
    // store true: the item is on the server and its id is enough.
    expect(judgeRequest(spec, replay(answer({ store: true }), true))).toEqual([]);
  });

  it('refuses a message item sent without its reasoning item, and pairs no id the mock did not issue', () => {
    const answer = renderOpenAIResponsesAnswer(
      { reasoning: 'Say hi.', content: 'Hi.' },
      { spec, call: 1, scenario: 'judge' },
    ).body as { output: Array<Record<string, unknown>> };
    const [rs, msg] = answer.output;
    const input = [{ role: 'user', content: 'Hello' }, msg!, { role: 'user', content: 'Again' }];
    expect(text(judgeRequest(spec, { model: 'gpt-5', input }))).toBe(
      `Item '${String(msg!.id)}' of type 'message' was provided without its required 'reasoning' item: '${String(rs!.id)}'.`,
    );
    const b = body();
    b.input.splice(1, 1);
    b.input[1]!.id = 'fc_0a038568becf80fb0068e9630e5fd081978df905e0edaed49a';
    expect(judgeRequest(spec, b)).toEqual([]);
  });

  it("refuses encrypted content issued for another organization, in OpenAI's organization wording", () => {
    const b = body();
    const rs = b.input[1]!;
    rs.encrypted_content = mockEncryptedContent(String(rs.id), 'elsewhere', organizationOf('openrouter'));
    expect(text(judgeRequest(spec, b))).toBe(
      `The encrypted content for item ${String(rs.id)} could not be verified. Reason: Encrypted content organization_id did not match the target organization.`,
    );
    rs.id = '';
    rs.encrypted_content = mockEncryptedContent('', 'elsewhere', organizationOf('openrouter'));
    expect(text(judgeRequest(spec, b))).toMatch(
      /^The encrypted content \S{4}\.\.\.\S{4} could not be verified\. Reason: Encrypted content organization_id did not match/,
    );
  });

  it('refuses encrypted reasoning asked of a model that does not reason, and only there', () => {
    const ask = (model: string) =>
      judgeRequest(specForModel(spec, model), {
        model,
        include: ['reasoning.encrypted_content'],
        input: [{ role: 'user', content: 'Hi' }],
      });
    for (const model of ['gpt-4.1', 'gpt-4o', 'gpt-5-chat-latest']) {
      const findings = ask(model);
      expect(
        findings.map((f) => f.rejection),
        model,
      ).toEqual(['encrypted-content-unsupported-model']);
      expect(
        (
          fillRejection(specForModel(spec, model).rejections[findings[0]!.rejection]!, findings[0]!.params).body as {
            error: { message: string };
          }
        ).error.message,
      ).toBe('Encrypted content is not supported with this model.');
    }
    for (const model of ['gpt-5', 'gpt-5.2-codex', 'o3', 'o4-mini']) expect(ask(model), model).toEqual([]);
  });

  it('refuses a reasoning item with nothing after it, and unknown item fields', () => {
    const b = body();
    b.input.splice(2);
    expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['reasoning-without-following']);
    const c = body();
    c.input[1]!.signature = 'x';
    expect(text(judgeRequest(spec, c))).toBe("Unknown parameter: 'input[1].signature'.");
  });

  it('says where a top-level reasoning_effort moved, and calls other unknown top-level keys unknown', () => {
    const moved = { ...body(), model: 'gpt-5.6', reasoning_effort: 'high' };
    expect(judgeRequest(spec, moved).map((f) => f.rejection)).toEqual(['reasoning-effort-moved']);
    expect(text(judgeRequest(spec, moved))).toMatch(
      /^Unsupported parameter: 'reasoning_effort'\. In the Responses API, this parameter has moved to 'reasoning\.effort'\./,
    );
    const unknown = { ...body(), model: 'gpt-5.6', thinking_effort: 'high' };
    expect(text(judgeRequest(spec, unknown))).toBe("Unknown parameter: 'thinking_effort'.");
  });
});

/**
 * Issue 40: the server pairs a reasoning item with the item it produced by id. A call sent without its id right after
 * the reasoning (langchain-ai/langchainjs#9082), or an id-less empty assistant message between the reasoning and its
 * call (continuedev/continue#11721), is refused with "... was provided without its required following item".
 */
describe('reasoning paired with the item it produced', () => {
  const refusals = (b: ReturnType<typeof body>) => judgeRequest(spec, b).map((f) => f.rejection);
  const at = (b: ReturnType<typeof body>, type: string) => b.input.findIndex((i) => i.type === type);

  it('accepts the engine body: reasoning, then the call with its id', () => {
    const b = body();
    expect(b.input[at(b, 'reasoning') + 1]!.type).toBe('function_call');
    expect(refusals(b)).toEqual([]);
  });

  it('refuses the call sent without its id right after the reasoning', () => {
    const b = body();
    delete b.input[at(b, 'function_call')]!.id;
    expect(refusals(b)).toContain('reasoning-without-following');
    const reasoning = b.input[at(b, 'reasoning')]!;
    expect(text(judgeRequest(spec, b).filter((f) => f.rejection === 'reasoning-without-following'))).toBe(
      `Item '${String(reasoning.id)}' of type 'reasoning' was provided without its required following item.`,
    );
  });

  it('refuses an id-less empty assistant message between the reasoning and its call', () => {
    const b = body();
    b.input.splice(at(b, 'reasoning') + 1, 0, { type: 'message', role: 'assistant', content: [] });
    expect(refusals(b)).toContain('reasoning-without-following');
  });

  it('accepts an id-less message with text after the reasoning (the answer as clients replay it)', () => {
    const b = body();
    b.input.splice(at(b, 'reasoning') + 1, 0, {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Listing.' }],
    });
    expect(refusals(b)).not.toContain('reasoning-without-following');
  });

  it('does not pair a reasoning item without an id (store false, as Codex sends it) by id', () => {
    const b = body();
    delete b.input[at(b, 'reasoning')]!.id;
    delete b.input[at(b, 'function_call')]!.id;
    expect(refusals(b)).not.toContain('reasoning-without-following');
  });
});
