import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { ResponseShapeError } from '../../../shared/errors/response-shape-error.js';
import { outputToAnswer } from './output-to-answer.js';
import { RESPONSES_NATIVE_KEY } from './responses-native.js';

/** Reads a Responses API body (`object: "response"`) into the assistant message and its carriers. */
export function fromOpenAIResponsesResponse(body: unknown, policy?: RoutePolicy): ParsedAnswer {
  if (!isPlainObject(body) || !Array.isArray(body.output))
    throw new ResponseShapeError('/output', 'expected a Responses body with an output array');
  const incomplete = isPlainObject(body.incomplete_details) ? body.incomplete_details.reason : undefined;
  try {
    return outputToAnswer(body.output, body.status, incomplete, policy?.native ?? RESPONSES_NATIVE_KEY);
  } catch (error) {
    throw new ResponseShapeError('/output', (error as Error).message);
  }
}
