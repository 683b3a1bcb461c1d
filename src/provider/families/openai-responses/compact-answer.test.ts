import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { loadProviderSpec, defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import { readFindingsHeader } from '../../../shared/findings/findings-record.js';
import { FixtureStore } from '../../fixtures/fixture-store.js';
import { providerHandlers } from '../../handlers/provider-handlers.js';
import { judgeRequest } from '../../handlers/judge-request.js';
import { verifyMockCompaction } from '../../signing/mock-compaction.js';
import { answerSchemasFor, endpointAnswerProblems } from '../../answers/answer-schemas.js';

/** POST /responses/compact as the Responses mocks serve it, and the next /responses request that carries its item. */
const openai = loadProviderSpec(`${defaultProvidersDir()}/openai-responses.json`);
const xai = loadProviderSpec(`${defaultProvidersDir()}/xai-responses.json`);
const fixtures = new FixtureStore();

async function compact(spec: typeof openai, body: unknown) {
  const response = await getResponse(
    providerHandlers(spec, fixtures),
    new Request(`${spec.endpoint.baseUrl}/responses/compact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  expect(response, 'a handler answers /responses/compact').toBeDefined();
  return {
    status: response!.status,
    asIs: response!.headers.has('x-reasoning-replay-as-is'),
    body: (await response!.json()) as Record<string, unknown> & { output: Record<string, unknown>[] },
    findings: readFindingsHeader(response!.headers, 'test'),
  };
}

const conversation = [
  { role: 'user', content: 'Plan the migration.' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Step one: back up.' }] },
  { role: 'user', content: 'Go on.' },
];

describe('POST /responses/compact', () => {
  it('OpenAI answers a response.compaction: the user messages, then one compaction item it signed', async () => {
    const answer = await compact(openai, { model: 'gpt-5.4', input: conversation });
    expect(answer.status).toBe(200);
    expect(answer.asIs).toBe(true);
    expect(answer.body).toMatchObject({ object: 'response.compaction', usage: { total_tokens: expect.any(Number) } });
    expect(answer.body.output.map((i) => `${i.type}:${i.role ?? ''}`)).toEqual([
      'message:user',
      'message:user',
      'compaction:',
    ]);
    for (const message of answer.body.output.slice(0, -1))
      expect(message, 'a Message of the ItemField list carries id and status').toMatchObject({
        id: expect.stringMatching(/^msg_/),
        status: 'completed',
      });
    const item = answer.body.output.at(-1)!;
    expect(item.id).toMatch(/^cmp_/);
    expect(verifyMockCompaction(openai.id, item.encrypted_content)).toBe(true);
  });

  it('a compact request without a model is refused, naming /model (compact takes no default model)', async () => {
    for (const spec of [openai, xai]) {
      const answer = await compact(spec, { input: conversation });
      expect(answer.status, spec.id).toBe(400);
      expect(answer.findings.map((f) => f.rejection)).toEqual([spec.request.invalidRejection]);
      expect(JSON.stringify(answer.body)).toContain('/model');
    }
  });

  it('xAI answers the compaction item alone, signed as xAI: OpenAI cannot read it', async () => {
    const answer = await compact(xai, { model: xai.target.model, input: conversation });
    expect(answer.body.output.map((i) => i.type)).toEqual(['compaction']);
    const blob = answer.body.output[0]!.encrypted_content;
    expect(verifyMockCompaction(xai.id, blob)).toBe(true);
    expect(verifyMockCompaction(openai.id, blob)).toBe(false);
  });

  it('a user message that sent its own msg_ id keeps it; the others get distinct ids', async () => {
    // The id rides on the InputMessage spelling (a content list), the one the definition gives an id.
    const first = { type: 'message', id: 'msg_own1', role: 'user', content: [{ type: 'input_text', text: 'Plan.' }] };
    const answer = await compact(openai, { model: 'gpt-5.4', input: [first, ...conversation.slice(1)] });
    expect(answer.status, JSON.stringify(answer.findings)).toBe(200);
    const ids = answer.body.output.slice(0, -1).map((m) => m.id);
    expect(ids[0]).toBe('msg_own1');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("every answer conforms to the definition's CompactResource, an input message with its own id as well", async () => {
    const first = { type: 'message', id: 'msg_own1', role: 'user', content: [{ type: 'input_text', text: 'Plan.' }] };
    for (const spec of [openai, xai])
      for (const input of [conversation, [first, ...conversation.slice(1)]]) {
        const answer = await compact(spec, { model: spec.target.model, input });
        expect(answer.status).toBe(200);
        expect(endpointAnswerProblems('/responses/compact', answer.body, answerSchemasFor(spec)!), spec.id).toEqual([]);
      }
  });

  it('the same conversation compacts to the same item', async () => {
    const a = await compact(openai, { model: 'gpt-5.4', input: conversation });
    const b = await compact(openai, { model: 'gpt-5.4', input: conversation });
    expect(a.body.output).toEqual(b.body.output);
  });

  it('the next /responses request carrying the output verbatim is accepted; an edited item is refused', async () => {
    const answer = await compact(openai, { model: 'gpt-5.4', input: conversation });
    const next = { model: 'gpt-5.4', input: [...answer.body.output, { role: 'user', content: 'And then?' }] };
    expect(judgeRequest(openai, next)).toEqual([]);
    const edited = structuredClone(next);
    const item = edited.input[answer.body.output.length - 1] as Record<string, string>;
    item.encrypted_content = `${item.encrypted_content!.slice(0, -4)}AAAA`;
    expect(judgeRequest(openai, edited).map((f) => f.rejection)).toContain('compaction-invalid');
  });

  it('a compact request carrying a foreign compaction item is refused as /responses would refuse it', async () => {
    const foreign = await compact(xai, { model: xai.target.model, input: conversation });
    const answer = await compact(openai, { model: 'gpt-5.4', input: [...foreign.body.output, conversation[2]] });
    expect(answer.status).toBe(400);
    expect(answer.findings.map((f) => f.rejection)).toContain('compaction-invalid');
  });

  it('a compact request after an earlier compaction keeps working from the newest item', async () => {
    const first = await compact(openai, { model: 'gpt-5.4', input: conversation });
    const second = await compact(openai, {
      model: 'gpt-5.4',
      input: [...first.body.output, { role: 'user', content: 'More.' }],
    });
    expect(second.status).toBe(200);
    expect(second.body.output.at(-1)!.encrypted_content).not.toBe(first.body.output.at(-1)!.encrypted_content);
  });
});
