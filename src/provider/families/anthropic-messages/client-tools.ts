import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { hasBlock, last, list, named, type ClientToolReading } from '../../answers/client-tools.js';

/**
 * Messages: client tools are `tools[]` without a type or of `type: custom` ({name, input_schema});
 * server tools carry a versioned type. A round closes with a user message holding `tool_result`
 * blocks. Anthropic's tool-use ids start `toolu_`.
 */
export const anthropicMessagesClientTools: ClientToolReading = {
  offeredTools: (body) =>
    list(body.tools).flatMap((t) =>
      isPlainObject(t) && (t.type === undefined || t.type === 'custom') ? named(t.name, t.input_schema) : [],
    ),
  endsWithToolResult: (body) => {
    const m = last(body.messages);
    return isPlainObject(m) && hasBlock(m.content, (b) => b.type === 'tool_result');
  },
  toolCallIdPrefix: 'toolu_rr_',
};
