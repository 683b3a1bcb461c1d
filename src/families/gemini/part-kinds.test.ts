import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunksToEvents } from '../../import/ai-sdk-chunks.js';
import type { RoutePolicy } from '../../routes/route-table.js';
import { formatSse } from '../../sse/parse-sse.js';
import { feedSplit } from '../split-stream.js';
import { fromGeminiResponse } from './from-response.js';
import { geminiStreamCarriers } from './stream-carriers.js';
import { toGeminiRequest } from './to-request.js';

/**
 * Gemini part kinds and stream joining, on chunk dumps beside this test written in the shape the
 * Gemini API streams (one GenerateContentResponse per line): each stream must give the record its
 * body gives, and the owning route must get the model turn back part for part.
 */
const fixture = (name: string) => {
  const at = (ext: string) => readFileSync(new URL(`./__fixtures__/${name}.${ext}`, import.meta.url), 'utf8');
  const body = JSON.parse(at('body.json')) as { candidates: { content: { parts: Record<string, unknown>[] } }[] };
  return { body, sse: formatSse(chunksToEvents(at('chunks.txt'), 'gemini')) };
};
const policy = { routeId: 'gemini', family: 'gemini', tier: 'standard', fields: [], flags: {}, native: 'gemini', target: { provider: 'gemini', host: 'generativelanguage.googleapis.com', model: 'gemini-3-pro-preview' } } as unknown as RoutePolicy;
const modelTurn = (message: unknown) =>
  (toGeminiRequest({ messages: [{ role: 'user', content: 'q' }, message as never] }, policy).body.contents as { role: string; parts: unknown[] }[]).find((c) => c.role === 'model')!.parts;

describe.each(['gemini3-code-execution', 'gemini3-tool-parts', 'gemini3-function-call', 'gemini25-signature-first'])('%s', (name) => {
  const { body, sse } = fixture(name);

  it('stream and body give the same record, however the stream is cut', () => {
    const unstreamed = fromGeminiResponse(body, policy);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        expect(feedSplit(geminiStreamCarriers(policy), sse, cuts).end()).toEqual(unstreamed);
      }),
      { numRuns: 30 },
    );
  });

  it('replays the model turn to its own route part for part, signatures where they came', () => {
    const answer = fromGeminiResponse(body, policy);
    expect(modelTurn(answer.message)).toEqual(body.candidates[0]!.content.parts);
  });
});

describe('Gemini parts the message has no field for', () => {
  it('keeps a signed executableCode part as a part, never as an empty text part', () => {
    const { body } = fixture('gemini3-code-execution');
    const parts = modelTurn(fromGeminiResponse(body, policy).message);
    expect(parts).toContainEqual(body.candidates[0]!.content.parts[1]);
    expect(parts).not.toContainEqual(expect.objectContaining({ text: '', thoughtSignature: expect.anything() }));
  });

  it('sends none of them to another route', () => {
    const { body } = fixture('gemini3-tool-parts');
    const message = fromGeminiResponse(body, policy).message;
    const vertex = { ...policy, routeId: 'vertex-gemini', native: 'vertex-gemini' } as RoutePolicy;
    const sent = JSON.stringify(toGeminiRequest({ messages: [{ role: 'user', content: 'q' }, message] }, vertex).body);
    expect(sent).not.toContain('toolCall');
    expect(sent).not.toContain('ExampleToolCallSignature');
    expect(sent).toContain('Refunds are accepted within 30 days.');
  });
});
