import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
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
import { mockEncryptedContent, organizationOf } from './issued-items.js';
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

  test.prop([fc.nat(), fc.integer({ min: 1, max: 63 })])(
    'refuses encrypted content with any one character changed',
    (at, shift) => {
      const b = body();
      const rs = b.input[1]!;
      const blob = String(rs.encrypted_content);
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const i = at % blob.length;
      const c = blob[i]!;
      rs.encrypted_content =
        blob.slice(0, i) + (c === '=' ? 'A' : alphabet[(alphabet.indexOf(c) + shift) % 64]) + blob.slice(i + 1);
      expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['encrypted-content-not-verified']);
    },
  );

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

  it('takes an item_reference to the reasoning item as that item (stored responses)', () => {
    const b = body();
    const rs = b.input[1]!;
    b.input[1] = { type: 'item_reference', id: rs.id };
    expect(judgeRequest(spec, { ...b, store: true })).toEqual([]);
    b.input[1] = { type: 'item_reference', id: 'rs_other' };
    expect(judgeRequest(spec, { ...b, store: true }).map((f) => f.rejection)).toEqual([
      'function-call-without-reasoning',
    ]);
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
});
