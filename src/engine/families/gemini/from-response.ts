import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { ResponseShapeError } from '../../../shared/errors/response-shape-error.js';
import { GEMINI_NATIVE_KEY } from './gemini-native.js';
import { partsToAnswer } from './parts-to-answer.js';

/** Reads `candidates[0].content.parts` of a generateContent answer. */
export function fromGeminiResponse(body: unknown, policy?: RoutePolicy): ParsedAnswer {
  if (!isPlainObject(body) || !Array.isArray(body.candidates) || !isPlainObject(body.candidates[0])) {
    throw new ResponseShapeError('/candidates/0', 'expected a generateContent body with at least one candidate');
  }
  const candidate = body.candidates[0];
  const content = candidate.content;
  const parts = isPlainObject(content) && Array.isArray(content.parts) ? content.parts : [];
  try {
    return partsToAnswer(parts, candidate.finishReason, policy?.native ?? GEMINI_NATIVE_KEY);
  } catch (error) {
    throw new ResponseShapeError('/candidates/0/content/parts', (error as Error).message);
  }
}
