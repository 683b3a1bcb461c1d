import type { AnswerRenderer } from '../../answers/answer-renderer.js';
import { geminiSigner, mockOpaque } from '../../signing/mock-opaque.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { chunkText } from '../../answers/chunk-text.js';

/**
 * A scripted answer as Gemini 3 writes it: a thought-summary part (includeThoughts), the visible
 * text, then function calls. Signatures sit where ai.google.dev/gemini-api/docs/thought-signatures
 * puts them: on the first functionCall part only (parallel calls), else on the last text part.
 * A redacted answer has no readable thoughts, only the signature.
 */
export const renderGeminiAnswer: AnswerRenderer = (answer, { spec, call, scenario, model }) => {
  const signer = geminiSigner(spec);
  const signature = mockOpaque(signer, 'thought', `${scenario}/${call}`);
  const calls = answer.tool_calls ?? [];
  const thought = answer.reasoning !== undefined && !answer.redacted ? answer.reasoning : '';
  const content = answer.content ?? '';
  const parts: Record<string, unknown>[] = [];
  if (thought !== '') parts.push({ text: thought, thought: true });
  if (content !== '') parts.push({ text: content, ...(calls.length === 0 ? { thoughtSignature: signature } : {}) });
  else if (calls.length === 0) parts.push({ text: '', thoughtSignature: signature });
  calls.forEach((c, i) => {
    parts.push({
      functionCall: { name: c.function.name, args: JSON.parse(c.function.arguments || '{}') },
      ...(i === 0 ? { thoughtSignature: signature } : {}),
    });
  });
  const usageMetadata = {
    promptTokenCount: 20 + call * 40,
    candidatesTokenCount: 30,
    thoughtsTokenCount: 12,
    totalTokenCount: 62 + call * 40,
  };
  const modelVersion = model ?? spec.target.model;
  const responseId = `resp-${scenario}-${call}`;
  const body = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion,
    responseId,
  };

  // The stream: thought and text in pieces, the text's signature on a last empty-text piece.
  const pieces: Record<string, unknown>[] = [];
  for (const p of chunkText(thought)) pieces.push({ text: p, thought: true });
  const textPieces = chunkText(content);
  for (const p of textPieces) pieces.push({ text: p });
  if (calls.length === 0) pieces.push({ text: '', thoughtSignature: signature });
  for (const part of parts) if ('functionCall' in part) pieces.push(part);
  const event = (piece: Record<string, unknown> | undefined, last: boolean, i: number): SseEvent => ({
    data: JSON.stringify({
      candidates: [
        {
          content: { role: 'model', parts: piece ? [piece] : [] },
          ...(last ? { finishReason: 'STOP' } : {}),
          index: 0,
        },
      ],
      ...(last ? { usageMetadata } : {}),
      modelVersion,
      responseId,
    }),
    atMs: i * 15,
  });
  const stream = pieces.map((piece, i) => event(piece, i === pieces.length - 1, i));
  if (stream.length === 0) stream.push(event(undefined, true, 0));
  return { body, stream };
};
