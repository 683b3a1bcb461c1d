import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { hasBlock, last, list, named, type ClientToolReading } from '../../answers/client-tools.js';

/**
 * Gemini: `tools[].functionDeclarations` (or snake_case) {name, parametersJsonSchema or parameters};
 * google-genai (Python) writes `parameters_json_schema` inside camelCase declarations, which the
 * API's JSON parser accepts as the same field.
 * a round closes with a content whose parts hold a `functionResponse`.
 */
export const geminiClientTools: ClientToolReading = {
  // A lone tool object (older @ai-sdk/google) is read as a list of one, as the API does (spec request.accepts).
  offeredTools: (body) =>
    (isPlainObject(body.tools) ? [body.tools] : list(body.tools)).flatMap((t) =>
      isPlainObject(t)
        ? list(t.functionDeclarations ?? t.function_declarations).flatMap((d) =>
            isPlainObject(d) ? named(d.name, d.parametersJsonSchema ?? d.parameters_json_schema ?? d.parameters) : [],
          )
        : [],
    ),
  endsWithToolResult: (body) => {
    const c = last(body.contents);
    return (
      isPlainObject(c) &&
      hasBlock(c.parts, (p) => p.functionResponse !== undefined || p.function_response !== undefined)
    );
  },
  toolCallIdPrefix: 'call_rr_',
};
