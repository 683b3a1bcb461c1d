import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { assembleAnswer, type AnswerBlock } from '../anthropic-messages/assemble-answer.js';
import type { ParsedAnswer } from '../family.js';
import { ResponseShapeError } from '../../../shared/errors/response-shape-error.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';

function str(value: unknown, pointer: string): string {
  if (typeof value !== 'string') throw new ResponseShapeError(pointer, 'expected a string');
  return value;
}

/**
 * One Converse content block. Kinds with no carrier here (citationsContent, image, document,
 * guardContent, ...) are well-formed: they come back as a `block` that the answer names in its
 * notes as skipped (Converse has no native record to replay them from), never as an error.
 */
export function readConverseBlock(block: unknown, pointer: string): AnswerBlock {
  if (!isPlainObject(block)) throw new ResponseShapeError(pointer, 'expected a content block object');
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  if (isPlainObject(block.toolUse)) {
    const t = block.toolUse;
    return {
      type: 'tool_use',
      id: str(t.toolUseId, `${pointer}/toolUse/toolUseId`),
      name: str(t.name, `${pointer}/toolUse/name`),
      input: t.input ?? {},
    };
  }
  if (isPlainObject(block.reasoningContent)) {
    const r = block.reasoningContent;
    if (isPlainObject(r.reasoningText)) {
      const text = str(r.reasoningText.text, `${pointer}/reasoningContent/reasoningText/text`);
      const signature = r.reasoningText.signature;
      return typeof signature === 'string'
        ? { type: 'thinking', thinking: text, signature }
        : { type: 'thinking', thinking: text };
    }
    if (r.redactedContent !== undefined)
      return {
        type: 'redacted_thinking',
        data: str(r.redactedContent, `${pointer}/reasoningContent/redactedContent`),
        surface: 'bedrock-converse',
      };
    throw new ResponseShapeError(`${pointer}/reasoningContent`, 'expected reasoningText or redactedContent');
  }
  const kind = Object.keys(block)[0];
  return { type: 'block', block: { type: kind ?? 'empty', ...block } };
}

/**
 * A Converse answer -> assistant message. Reasoning is stored Anthropic-shaped (`thinking` with
 * its signature, `redacted_thinking` with the base64 blob), so a turn reloaded from storage
 * replays to Bedrock identically and can also cross to the other Claude surfaces.
 */
export function fromBedrockConverseResponse(body: unknown): ParsedAnswer {
  const message = isPlainObject(body) && isPlainObject(body.output) ? body.output.message : undefined;
  if (!isPlainObject(message) || !Array.isArray(message.content)) {
    throw new ResponseShapeError('/output/message/content', 'expected a Converse body with output.message.content');
  }
  const blocks = message.content.map((block, i) => readConverseBlock(block, `/output/message/content/${i}`));
  return assembleAnswer(blocks, mapBedrockStopReason((body as Record<string, unknown>).stopReason));
}
