import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { last, list, named, type ClientToolReading } from '../../answers/client-tools.js';

/**
 * Chat completions: `tools[].function` {name, parameters}; a round closes with `role: tool` (legacy `function`)
 * messages.
 */
export const openAIChatClientTools: ClientToolReading = {
  offeredTools: (body) =>
    list(body.tools).flatMap((t) =>
      isPlainObject(t) && isPlainObject(t.function) ? named(t.function.name, t.function.parameters) : [],
    ),
  endsWithToolResult: (body) => {
    const m = last(body.messages);
    return isPlainObject(m) && (m.role === 'tool' || m.role === 'function');
  },
  toolCallIdPrefix: 'call_rr_',
};
