import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunksToEvents } from '../../../tools/commands/import/ai-sdk-chunks.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
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
const policy = {
  routeId: 'gemini',
  family: 'gemini',
  tier: 'standard',
  fields: [],
  flags: {},
  native: 'gemini',
  target: { provider: 'gemini', host: 'generativelanguage.googleapis.com', model: 'gemini-3-pro-preview' },
} as unknown as RoutePolicy;
const modelTurn = (message: unknown) =>
  (
    toGeminiRequest({ messages: [{ role: 'user', content: 'q' }, message as never] }, policy).body.contents as {
      role: string;
      parts: unknown[];
    }[]
  ).find((c) => c.role === 'model')!.parts;

describe.each(['gemini3-code-execution', 'gemini3-tool-parts', 'gemini3-function-call', 'gemini25-signature-first'])(
  '%s',
  (name) => {
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
  },
);

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

describe('Gemini stream joining, generated', () => {
  type BodyPart = Record<string, unknown>;
  const signature = fc.stringMatching(/^[A-Za-z0-9+/]{8,16}={0,2}$/);
  const textPart = fc.record({
    text: fc.string({ minLength: 1, maxLength: 12 }),
    thought: fc.boolean(),
    sig: fc.option(signature, { nil: undefined }),
    style: fc.constantFrom('first', 'last'),
    cuts: fc.array(fc.nat(), { maxLength: 2 }),
  });
  const callPart = fc.record({
    name: fc.constantFrom('ls', 'get_weather'),
    sig: fc.option(signature, { nil: undefined }),
  });
  /**
   * A model turn as the body holds it; adjacent text parts differ in kind (thought / visible), as one Gemini part per
   * run.
   */
  const aModelTurn = fc
    .array(
      fc.oneof(
        textPart.map((t) => ({ kind: 'text' as const, ...t })),
        callPart.map((c) => ({ kind: 'call' as const, ...c })),
      ),
      { minLength: 1, maxLength: 6 },
    )
    .filter((parts) =>
      parts.every(
        (p, i) =>
          i === 0 ||
          p.kind !== 'text' ||
          parts[i - 1]!.kind !== 'text' ||
          (parts[i - 1] as { thought: boolean }).thought !== p.thought,
      ),
    );

  it('streamed in pieces, with the signature on the first piece (2.5) or a trailing empty one (3), and a trailing unsigned empty piece, reads as the body', () => {
    fc.assert(
      fc.property(aModelTurn, fc.boolean(), (turn, trailingEmpty) => {
        const body: BodyPart[] = [];
        const pieces: BodyPart[] = [];
        for (const p of turn) {
          const sig = p.sig !== undefined ? { thoughtSignature: p.sig } : {};
          if (p.kind === 'call') {
            const part = { functionCall: { name: p.name, args: {} }, ...sig };
            body.push(part);
            pieces.push(part);
            continue;
          }
          const thought = p.thought ? { thought: true } : {};
          body.push({ text: p.text, ...thought, ...sig });
          const at = [...new Set(p.cuts.map((c) => c % (p.text.length + 1)))].sort((a, b) => a - b);
          const texts = [0, ...at]
            .map((start, i, all) => p.text.slice(start, all[i + 1] ?? p.text.length))
            .filter((t) => t !== '');
          texts.forEach((t, i) => pieces.push({ text: t, ...thought, ...(p.style === 'first' && i === 0 ? sig : {}) }));
          if (p.style === 'last' && p.sig !== undefined) pieces.push({ text: '', ...thought, ...sig });
        }
        if (trailingEmpty) pieces.push({ text: '' });
        const events = pieces.map((piece, i) => ({
          data: JSON.stringify({
            candidates: [
              {
                content: { role: 'model', parts: [piece] },
                ...(i === pieces.length - 1 ? { finishReason: 'STOP' } : {}),
              },
            ],
          }),
        }));
        const carriers = geminiStreamCarriers(policy);
        for (const e of events) carriers.acceptEvent(e);
        expect(carriers.end()).toEqual(
          fromGeminiResponse(
            { candidates: [{ content: { role: 'model', parts: body }, finishReason: 'STOP' }] },
            policy,
          ),
        );
      }),
      { numRuns: 150 },
    );
  });
});
