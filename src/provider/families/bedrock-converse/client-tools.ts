import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { hasBlock, last, list, named, type ClientToolReading } from '../../answers/client-tools.js';

/**
 * Converse: `toolConfig.tools[].toolSpec` {name, inputSchema.json}; a round closes with `toolResult` blocks. Bedrock's
 * tool-use ids start `tooluse_`.
 */
export const bedrockConverseClientTools: ClientToolReading = {
  offeredTools: (body) => {
    const config = isPlainObject(body.toolConfig) ? body.toolConfig : {};
    return list(config.tools).flatMap((t) =>
      isPlainObject(t) && isPlainObject(t.toolSpec)
        ? named(t.toolSpec.name, isPlainObject(t.toolSpec.inputSchema) ? t.toolSpec.inputSchema.json : undefined)
        : [],
    );
  },
  endsWithToolResult: (body) => {
    const m = last(body.messages);
    return isPlainObject(m) && hasBlock(m.content, (b) => b.toolResult !== undefined);
  },
  toolCallIdPrefix: 'tooluse_rr_',
};
