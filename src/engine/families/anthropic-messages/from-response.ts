import { droppedThinkingPaths } from './dropped-thinking.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import type { ProducedBy } from '../../../shared/history/history.js';
import { ResponseShapeError } from '../../../shared/errors/response-shape-error.js';
import { ANTHROPIC_NATIVE_KEY } from './anthropic-native.js';
import { assembleAnswer, type AnswerBlock } from './assemble-answer.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

function str(value: unknown, pointer: string): string {
  if (typeof value !== 'string') throw new ResponseShapeError(pointer, 'expected a string');
  return value;
}

/**
 * A text block's keys beyond `type` and `text` (citations), kept as given; undefined when none. A
 * null or empty value says nothing (a streamed block opens with `citations: []` whether or not any
 * citation follows), so it does not make the answer need a record.
 */
export function textExtra(block: Record<string, unknown>): Record<string, unknown> | undefined {
  const { type: _type, text: _text, ...rest } = block;
  const extra = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)),
  );
  return Object.keys(extra).length > 0 ? extra : undefined;
}

/**
 * One Messages API content block. Blocks this harness has no model for (server_tool_use,
 * web_search_tool_result, web_fetch_tool_result, code_execution_tool_result, mcp_tool_use, and
 * whatever Anthropic adds next) are well-formed answers all the same: they are kept verbatim, in
 * position, so the turn can be replayed as it came. Only a block that is not an object with a
 * string `type` is malformed.
 */
export function readAnthropicBlock(block: unknown, pointer: string): AnswerBlock {
  if (!isPlainObject(block)) throw new ResponseShapeError(pointer, 'expected a content block object');
  switch (block.type) {
    case 'thinking':
      return typeof block.signature === 'string'
        ? { type: 'thinking', thinking: str(block.thinking, `${pointer}/thinking`), signature: block.signature }
        : { type: 'thinking', thinking: str(block.thinking, `${pointer}/thinking`) };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: str(block.data, `${pointer}/data`), surface: 'anthropic-messages' };
    case 'text': {
      const extra = textExtra(block);
      return { type: 'text', text: str(block.text, `${pointer}/text`), ...(extra ? { extra } : {}) };
    }
    case 'tool_use':
      return {
        type: 'tool_use',
        id: str(block.id, `${pointer}/id`),
        name: str(block.name, `${pointer}/name`),
        input: block.input ?? {},
      };
    default:
      if (typeof block.type !== 'string') throw new ResponseShapeError(`${pointer}/type`, 'expected a string');
      return { type: 'block', block };
  }
}

/** The answer's `model` (the Messages API names the model that wrote it), when it names one. */
export function producedBy(model: unknown): ProducedBy | undefined {
  return typeof model === 'string' && model !== '' ? { model } : undefined;
}

/** A Messages API answer -> assistant message; every block kept in the order the model wrote it. */
export function fromAnthropicMessagesResponse(body: unknown, policy?: RoutePolicy): ParsedAnswer {
  if (!isPlainObject(body) || !Array.isArray(body.content)) {
    throw new ResponseShapeError('/content', 'expected a Messages API body with a content array');
  }
  const blocks = body.content.map((block, i) => readAnthropicBlock(block, `/content/${i}`));
  const answer = assembleAnswer(
    blocks,
    mapAnthropicFinishReason(body.stop_reason),
    policy?.native ?? ANTHROPIC_NATIVE_KEY,
    producedBy(body.model),
  );
  const dropped = droppedThinkingPaths(body);
  return dropped.length ? { ...answer, droppedThinking: dropped } : answer;
}
