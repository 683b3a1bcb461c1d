import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/**
 * The replayed thinking blocks an answer says the provider dropped: Claude's binding check under
 * `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` removes a block bound to another prefix and lists
 * it in the message's `input_transformations` as `thinking_dropped` with its path in the request
 * (`messages.N.content.M`; @anthropic-ai/sdk 1.17.0, BetaThinkingDroppedInputTransformation). The model no longer
 * sees that reasoning, and sending the block again only has it dropped again, so the history must lose it
 * (Anthropic's fix: remove the block). The paths are read here; sentThinkingSignatures resolves them.
 */
export function droppedThinkingPaths(message: unknown): string[] {
  if (!isPlainObject(message) || !Array.isArray(message.input_transformations)) return [];
  return message.input_transformations.flatMap((t) =>
    isPlainObject(t) && t.type === 'thinking_dropped' && typeof t.path === 'string' ? [t.path] : [],
  );
}

/** The signatures of the thinking blocks at `paths` (`messages.N.content.M`) of the request body that was sent. */
export function sentThinkingSignatures(paths: readonly string[], sent: unknown): string[] {
  if (!isPlainObject(sent) || !Array.isArray(sent.messages)) return [];
  const messages = sent.messages as unknown[];
  return paths.flatMap((path) => {
    const at = /^messages\.(\d+)\.content\.(\d+)$/.exec(path);
    if (!at) return [];
    const message = messages[Number(at[1])];
    const content = isPlainObject(message) && Array.isArray(message.content) ? message.content : [];
    const block: unknown = content[Number(at[2])];
    return isPlainObject(block) && block.type === 'thinking' && typeof block.signature === 'string'
      ? [block.signature]
      : [];
  });
}
