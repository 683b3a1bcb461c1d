import { isPlainObject } from '../../util/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { ResponseShapeError } from '../openai-chat/from-response.js';
import { assembleAnswer, type AnswerBlock } from './assemble-answer.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

function str(value: unknown, pointer: string): string {
  if (typeof value !== 'string') throw new ResponseShapeError(pointer, 'expected a string');
  return value;
}

/** One Messages API content block; block types this harness has no carrier for are skipped. */
export function readAnthropicBlock(block: unknown, pointer: string): AnswerBlock | undefined {
  if (!isPlainObject(block)) throw new ResponseShapeError(pointer, 'expected a content block object');
  switch (block.type) {
    case 'thinking':
      return typeof block.signature === 'string'
        ? { type: 'thinking', thinking: str(block.thinking, `${pointer}/thinking`), signature: block.signature }
        : { type: 'thinking', thinking: str(block.thinking, `${pointer}/thinking`) };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: str(block.data, `${pointer}/data`) };
    case 'text':
      return { type: 'text', text: str(block.text, `${pointer}/text`) };
    case 'tool_use':
      return { type: 'tool_use', id: str(block.id, `${pointer}/id`), name: str(block.name, `${pointer}/name`), input: block.input ?? {} };
    default:
      return undefined;
  }
}

/** A Messages API answer -> assistant message; thinking kept in the order the model wrote it. */
export function fromAnthropicMessagesResponse(body: unknown): ParsedAnswer {
  if (!isPlainObject(body) || !Array.isArray(body.content)) {
    throw new ResponseShapeError('/content', 'expected a Messages API body with a content array');
  }
  const blocks = body.content.flatMap((block, i) => {
    const read = readAnthropicBlock(block, `/content/${i}`);
    return read ? [read] : [];
  });
  return assembleAnswer(blocks, mapAnthropicFinishReason(body.stop_reason));
}
