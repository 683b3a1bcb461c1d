import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { last, list, named, type ClientToolReading } from '../../answers/client-tools.js';

/**
 * Responses: `tools[]` of `type: function` {name, parameters}; a round closes with a `function_call_output` input item.
 */
export const openAIResponsesClientTools: ClientToolReading = {
  offeredTools: (body) =>
    list(body.tools).flatMap((t) => (isPlainObject(t) && t.type === 'function' ? named(t.name, t.parameters) : [])),
  endsWithToolResult: (body) => {
    const item = last(body.input);
    return isPlainObject(item) && item.type === 'function_call_output';
  },
  toolCallIdPrefix: 'call_rr_',
};
