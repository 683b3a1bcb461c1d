import type { Content, History, Message, ReasoningDetail, TextPart, ToolCall } from '../../shared/history/history.js';
import { expectString, isObject, onlyKeys, type Converted, type HistoryFormat } from './history-format.js';
import { HistoryFormatError } from '../../shared/errors/history-format-error.js';

/**
 * An Anthropic Messages history: `{"system"?, "messages": [{"role": "user" | "assistant", "content"}]}`.
 * `thinking` / `redacted_thinking` blocks become Anthropic-shaped reasoning_details, verbatim (the
 * signature covers them byte for byte); `tool_use` becomes tool_calls (input as JSON text);
 * `tool_result` blocks become tool messages. A block order the canonical history cannot keep
 * (reasoning, then text, then tool_use in an assistant turn; tool results first in a user turn, as
 * Anthropic itself requires) is refused, as is any block kind that carries no text or reasoning.
 */
const SHAPE =
  '{"system"?: string | [text blocks], "messages": [{"role": "user" | "assistant", "content": string | [text | thinking | redacted_thinking | tool_use | tool_result blocks]}]}';

/** Keys a block may carry that change nothing in the conversation: dropped with a note. */
const IGNORED_BLOCK_KEYS = ['cache_control'];

function block(raw: unknown, at: string, allowed: string[], notes: string[]): Record<string, unknown> {
  if (!isObject(raw)) throw new HistoryFormatError(at, 'a content block must be an object');
  const copy = { ...raw };
  for (const key of IGNORED_BLOCK_KEYS) {
    if (key in copy) {
      delete copy[key];
      notes.push(`${at}/${key}: dropped (a prompt-caching marker, not part of the conversation)`);
    }
  }
  // SDK dumps write `"citations": null` on every text block: null carries nothing.
  if (copy.citations === null) {
    delete copy.citations;
    notes.push(`${at}/citations: null, read as absent`);
  }
  onlyKeys(copy, allowed, at, `a ${String(raw.type)} block is {${allowed.map((k) => `"${k}"`).join(', ')}}`);
  return copy;
}

function textBlock(raw: unknown, at: string, notes: string[]): TextPart {
  if (!isObject(raw) || raw.type !== 'text')
    throw new HistoryFormatError(
      at,
      `a ${isObject(raw) ? String(raw.type) : 'non-object'} block has no place here`,
      'only text blocks (images and documents are not reasoning carriers)',
    );
  const b = block(raw, at, ['type', 'text'], notes);
  return { type: 'text', text: expectString(b.text, `${at}/text`, 'text') };
}

function textBlocks(value: unknown[], at: string, notes: string[]): TextPart[] {
  return value.map((raw, i) => textBlock(raw, `${at}/${i}`, notes));
}

function readUser(content: unknown, at: string, notes: string[]): Message[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  if (!Array.isArray(content))
    throw new HistoryFormatError(`${at}/content`, 'content must be a string or an array of blocks');
  const out: Message[] = [];
  const text: TextPart[] = [];
  content.forEach((raw, i) => {
    const here = `${at}/content/${i}`;
    if (isObject(raw) && raw.type === 'tool_result') {
      if (text.length > 0)
        throw new HistoryFormatError(
          here,
          'a tool_result after text',
          'Anthropic wants tool_result blocks first in a user turn',
        );
      const b = block(raw, here, ['type', 'tool_use_id', 'content', 'is_error'], notes);
      if (b.is_error !== undefined)
        throw new HistoryFormatError(
          `${here}/is_error`,
          'is_error has no place in the canonical history',
          'fold the error into the result text',
        );
      let result: Content = null;
      if (typeof b.content === 'string') result = b.content;
      else if (Array.isArray(b.content)) result = textBlocks(b.content, `${here}/content`, notes);
      else if (b.content !== undefined)
        throw new HistoryFormatError(`${here}/content`, 'must be a string or an array of text blocks');
      out.push({
        role: 'tool',
        tool_call_id: expectString(b.tool_use_id, `${here}/tool_use_id`, 'tool_use_id'),
        content: result,
      });
    } else {
      text.push(textBlock(raw, here, notes));
    }
  });
  if (text.length > 0 || out.length === 0) out.push({ role: 'user', content: text });
  return out;
}

function readAssistant(content: unknown, at: string, notes: string[]): Message {
  if (typeof content === 'string') return { role: 'assistant', content };
  if (!Array.isArray(content))
    throw new HistoryFormatError(`${at}/content`, 'content must be a string or an array of blocks');
  const details: ReasoningDetail[] = [];
  const text: TextPart[] = [];
  const calls: ToolCall[] = [];
  const rank = { thinking: 0, redacted_thinking: 0, text: 1, tool_use: 2 } as Record<string, number>;
  let last = 0;
  content.forEach((raw, i) => {
    const here = `${at}/content/${i}`;
    const type = isObject(raw) ? String(raw.type) : '';
    if (!(type in rank))
      throw new HistoryFormatError(
        here,
        `a ${type || 'non-object'} block has no place in the canonical history`,
        'assistant blocks: thinking, redacted_thinking, text, tool_use',
      );
    if (rank[type]! < last)
      throw new HistoryFormatError(
        here,
        `a ${type} block after a later kind`,
        'the canonical history keeps an assistant turn as reasoning, then text, then tool_use',
      );
    last = rank[type]!;
    if (type === 'thinking' || type === 'redacted_thinking') {
      // Verbatim, every key: the signature covers the block as Claude sent it.
      const b = block(raw, here, Object.keys(raw as object), notes);
      details.push(b as unknown as ReasoningDetail);
    } else if (type === 'text') {
      text.push(textBlock(raw, here, notes));
    } else {
      const b = block(raw, here, ['type', 'id', 'name', 'input'], notes);
      if (!isObject(b.input)) throw new HistoryFormatError(`${here}/input`, 'tool_use input must be an object');
      calls.push({
        id: expectString(b.id, `${here}/id`, 'id'),
        type: 'function',
        function: { name: expectString(b.name, `${here}/name`, 'name'), arguments: JSON.stringify(b.input) },
      });
    }
  });
  return {
    role: 'assistant',
    content: text,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    ...(details.length > 0 ? { reasoning_details: details } : {}),
  };
}

function toCanonical(value: unknown): Converted {
  if (!isObject(value) || !Array.isArray(value.messages))
    throw new HistoryFormatError('/', 'expected {"system"?, "messages": [...]}', SHAPE);
  onlyKeys(
    value,
    ['system', 'messages'],
    '',
    'an Anthropic history is {"system"?, "messages"}; request options (model, tools, thinking) are not history',
  );
  const notes: string[] = [];
  const messages: Message[] = [];
  if (typeof value.system === 'string') messages.push({ role: 'system', content: value.system });
  else if (Array.isArray(value.system))
    messages.push({ role: 'system', content: textBlocks(value.system, '/system', notes) });
  else if (value.system !== undefined)
    throw new HistoryFormatError('/system', 'must be a string or an array of text blocks');
  value.messages.forEach((raw, i) => {
    const at = `/messages/${i}`;
    if (!isObject(raw)) throw new HistoryFormatError(at, 'a message must be an object');
    onlyKeys(raw, ['role', 'content'], at, 'a message is {"role", "content"}');
    if (raw.role === 'user') messages.push(...readUser(raw.content, at, notes));
    else if (raw.role === 'assistant') messages.push(readAssistant(raw.content, at, notes));
    else throw new HistoryFormatError(`${at}/role`, 'must be "user" or "assistant"');
  });
  return { history: { messages }, notes };
}

const blocksOf = (content: Content) =>
  content === null
    ? []
    : typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : content.map((p) => ({ type: 'text', text: p.text }));

function fromCanonical(history: History): unknown {
  const out: { system?: unknown; messages: { role: string; content: unknown }[] } = { messages: [] };
  history.messages.forEach((m, i) => {
    const at = `/messages/${i}`;
    const last = out.messages.at(-1);
    if (m.role === 'system') {
      if (i !== 0) throw new HistoryFormatError(at, 'Anthropic holds one system prompt, before the conversation');
      out.system = m.content === null ? '' : typeof m.content === 'string' ? m.content : blocksOf(m.content);
    } else if (m.role === 'tool') {
      const result: Record<string, unknown> = { type: 'tool_result', tool_use_id: m.tool_call_id };
      if (m.content !== null) result.content = typeof m.content === 'string' ? m.content : blocksOf(m.content);
      const previous = history.messages[i - 1];
      if (previous?.role === 'tool' && last) (last.content as unknown[]).push(result);
      else out.messages.push({ role: 'user', content: [result] });
    } else if (m.role === 'user') {
      // Text after tool results goes in the same user turn (Anthropic: tool results first).
      if (history.messages[i - 1]?.role === 'tool' && last) (last.content as unknown[]).push(...blocksOf(m.content));
      else
        out.messages.push({ role: 'user', content: typeof m.content === 'string' ? m.content : blocksOf(m.content) });
    } else {
      if (m.native || m.reasoning_content !== undefined || m.reasoning !== undefined)
        throw new HistoryFormatError(at, 'unsigned or foreign reasoning has no place on the Anthropic wire');
      const details = m.reasoning_details ?? [];
      const foreign = details.findIndex((d) => d.type !== 'thinking' && d.type !== 'redacted_thinking');
      if (foreign !== -1)
        throw new HistoryFormatError(
          `${at}/reasoning_details/${foreign}`,
          `a ${details[foreign]!.type} item has no place on the Anthropic wire`,
        );
      if (typeof m.content === 'string' && details.length === 0 && !m.tool_calls) {
        out.messages.push({ role: 'assistant', content: m.content });
        return;
      }
      const calls = (m.tool_calls ?? []).map((c) => ({
        type: 'tool_use',
        id: c.id,
        name: c.function.name,
        input: JSON.parse(c.function.arguments) as unknown,
      }));
      out.messages.push({ role: 'assistant', content: [...details, ...blocksOf(m.content), ...calls] });
    }
  });
  return out;
}

export const anthropicMessagesFormat: HistoryFormat = {
  id: 'anthropic-messages',
  shape: SHAPE,
  toCanonical,
  fromCanonical,
};
