import type { History, Message, TextPart, ToolCall } from '../../shared/history/history.js';
import {
  DEFAULT_GEMINI_NATIVE_KEY,
  expectString,
  isObject,
  onlyKeys,
  type ConvertOptions,
  type Converted,
  type HistoryFormat,
} from './history-format.js';
import { HistoryFormatError } from '../../shared/errors/history-format-error.js';

/**
 * A Gemini `generateContent` history: `{"systemInstruction"?: {"parts"}, "contents": [{"role":
 * "user" | "model", "parts"}]}`. A model turn keeps its whole part layout in the Gemini native
 * record (text and thought lengths, call positions, every thoughtSignature where it came, and any
 * other part kind verbatim), so it goes back to Gemini part for part. Calls without an `id` get
 * one of the form `gemini-call-<content>-<part>` (written back without it), and a functionResponse
 * without an id answers the oldest open call of its name, as Gemini pairs them (in order).
 */
const SHAPE =
  '{"systemInstruction"?: {"parts": [{"text"}]}, "contents": [{"role": "user" | "model", "parts": [{"text", "thought"?, "thoughtSignature"?} | {"functionCall": {"name", "args", "id"?}, "thoughtSignature"?} | {"functionResponse": {"name", "response", "id"?}} | ...]}]}';
const GENERATED_ID = /^gemini-call-\d+-\d+$/;

type Part = Record<string, unknown>;

function parts(value: unknown, at: string): Part[] {
  if (!Array.isArray(value)) throw new HistoryFormatError(at, 'parts must be an array');
  return value.map((p, i) => {
    if (!isObject(p)) throw new HistoryFormatError(`${at}/${i}`, 'a part must be an object');
    return p;
  });
}

function textContent(list: TextPart[]): Message['content'] {
  return list.length === 1 ? list[0]!.text : list;
}

function readModel(ps: Part[], at: string, contentIndex: number, key: string, open: ToolCall[]): Message {
  const layout: Record<string, unknown>[] = [];
  const calls: ToolCall[] = [];
  let text: string | null = null;
  let thoughts: string | null = null;
  ps.forEach((p, i) => {
    const here = `${at}/parts/${i}`;
    const sig =
      p.thoughtSignature === undefined
        ? {}
        : { thoughtSignature: expectString(p.thoughtSignature, `${here}/thoughtSignature`, 'thoughtSignature') };
    if (isObject(p.functionCall)) {
      onlyKeys(
        p,
        ['functionCall', 'thoughtSignature'],
        here,
        'a functionCall part is {"functionCall", "thoughtSignature"?}',
      );
      const fc = p.functionCall;
      onlyKeys(fc, ['name', 'args', 'id'], `${here}/functionCall`, 'a functionCall is {"name", "args", "id"?}');
      if (fc.args !== undefined && !isObject(fc.args))
        throw new HistoryFormatError(`${here}/functionCall/args`, 'args must be an object');
      const id =
        fc.id === undefined ? `gemini-call-${contentIndex}-${i}` : expectString(fc.id, `${here}/functionCall/id`, 'id');
      const call: ToolCall = {
        id,
        type: 'function',
        function: {
          name: expectString(fc.name, `${here}/functionCall/name`, 'name'),
          arguments: JSON.stringify(fc.args ?? {}),
        },
      };
      layout.push({ kind: 'functionCall', call: calls.length, ...sig });
      calls.push(call);
      open.push(call);
    } else if (typeof p.text === 'string' && (p.thought === undefined || typeof p.thought === 'boolean')) {
      onlyKeys(
        p,
        ['text', 'thought', 'thoughtSignature'],
        here,
        'a text part is {"text", "thought"?, "thoughtSignature"?}',
      );
      if (p.thought === false)
        throw new HistoryFormatError(
          `${here}/thought`,
          '"thought": false cannot be told from its absence in the canonical history',
          'omit it',
        );
      if (p.thought === true) thoughts = (thoughts ?? '') + p.text;
      else text = (text ?? '') + p.text;
      layout.push({ kind: p.thought === true ? 'thought' : 'text', chars: p.text.length, ...sig });
    } else {
      // executableCode, codeExecutionResult, inlineData, a signature-only part, or a kind Google
      // adds later: kept verbatim in position (the Gemini family replays it as it came).
      layout.push({ kind: 'part', part: p });
    }
  });
  const message: Message = { role: 'assistant', content: text };
  if (calls.length > 0) message.tool_calls = calls;
  if (thoughts !== null) message.reasoning = thoughts;
  message.native = { route: key, fields: { parts: layout } };
  return message;
}

function readUser(ps: Part[], at: string, open: ToolCall[]): Message[] {
  const out: Message[] = [];
  const text: TextPart[] = [];
  ps.forEach((p, i) => {
    const here = `${at}/parts/${i}`;
    if (isObject(p.functionResponse)) {
      if (text.length > 0)
        throw new HistoryFormatError(
          here,
          'a functionResponse after text',
          'the canonical history keeps tool results before the user text of a turn',
        );
      onlyKeys(p, ['functionResponse'], here, 'a functionResponse part is {"functionResponse"}');
      const fr = p.functionResponse;
      onlyKeys(
        fr,
        ['name', 'response', 'id'],
        `${here}/functionResponse`,
        'a functionResponse is {"name", "response", "id"?}',
      );
      const name = expectString(fr.name, `${here}/functionResponse/name`, 'name');
      if (!isObject(fr.response))
        throw new HistoryFormatError(`${here}/functionResponse/response`, 'response must be an object');
      let at = -1;
      if (fr.id !== undefined) at = open.findIndex((c) => c.id === fr.id);
      else at = open.findIndex((c) => c.function.name === name && GENERATED_ID.test(c.id)); // Gemini answers calls in order
      const id =
        at === -1
          ? fr.id === undefined
            ? undefined
            : expectString(fr.id, `${here}/functionResponse/id`, 'id')
          : open[at]!.id;
      if (id === undefined)
        throw new HistoryFormatError(here, `no functionCall named "${name}" is open for this response`);
      if (at !== -1) open.splice(at, 1);
      out.push({ role: 'tool', tool_call_id: id, name, content: JSON.stringify(fr.response) });
    } else if (typeof p.text === 'string') {
      onlyKeys(p, ['text'], here, 'a user text part is {"text"}');
      text.push({ type: 'text', text: p.text });
    } else {
      throw new HistoryFormatError(
        here,
        'only text and functionResponse parts have a place in a canonical user turn',
        'inline data and files are not reasoning carriers',
      );
    }
  });
  if (text.length > 0 || out.length === 0) out.push({ role: 'user', content: textContent(text) });
  return out;
}

function toCanonical(value: unknown, options: ConvertOptions = {}): Converted {
  if (!isObject(value) || !Array.isArray(value.contents))
    throw new HistoryFormatError('/', 'expected {"systemInstruction"?, "contents": [...]}', SHAPE);
  onlyKeys(
    value,
    ['systemInstruction', 'contents'],
    '',
    'a Gemini history is {"systemInstruction"?, "contents"}; tools and generationConfig are not history',
  );
  const key = options.geminiNativeKey ?? DEFAULT_GEMINI_NATIVE_KEY;
  const messages: Message[] = [];
  if (value.systemInstruction !== undefined) {
    if (!isObject(value.systemInstruction))
      throw new HistoryFormatError('/systemInstruction', 'must be {"parts": [...]}');
    onlyKeys(value.systemInstruction, ['parts'], '/systemInstruction', 'systemInstruction is {"parts": [{"text"}]}');
    const list = parts(value.systemInstruction.parts, '/systemInstruction/parts').map((p, i) => {
      onlyKeys(p, ['text'], `/systemInstruction/parts/${i}`, 'a system part is {"text"}');
      return { type: 'text' as const, text: expectString(p.text, `/systemInstruction/parts/${i}/text`, 'text') };
    });
    messages.push({ role: 'system', content: textContent(list) });
  }
  const open: ToolCall[] = [];
  value.contents.forEach((raw, i) => {
    const at = `/contents/${i}`;
    if (!isObject(raw)) throw new HistoryFormatError(at, 'a content must be an object');
    onlyKeys(raw, ['role', 'parts'], at, 'a content is {"role", "parts"}');
    const ps = parts(raw.parts, `${at}/parts`);
    if (raw.role === 'model') messages.push(readModel(ps, at, i, key, open));
    else if (raw.role === 'user') messages.push(...readUser(ps, at, open));
    else throw new HistoryFormatError(`${at}/role`, 'must be "user" or "model"');
  });
  return { history: { messages }, notes: [] };
}

const partsOf = (content: Message['content']): Part[] =>
  content === null ? [] : typeof content === 'string' ? [{ text: content }] : content.map((p) => ({ text: p.text }));

function modelParts(m: Message, at: string, key: string): Part[] {
  const layout = m.native?.route === key ? ((m.native.fields.parts ?? []) as Record<string, unknown>[]) : undefined;
  const call = (i: number): Part => {
    const c = m.tool_calls![i]!;
    return {
      functionCall: {
        name: c.function.name,
        args: JSON.parse(c.function.arguments) as unknown,
        ...(GENERATED_ID.test(c.id) ? {} : { id: c.id }),
      },
    };
  };
  if (!layout) {
    if (m.native || m.reasoning_details || m.reasoning_content !== undefined)
      throw new HistoryFormatError(at, 'reasoning from another route has no place in a Gemini history');
    return [...partsOf(m.content), ...(m.tool_calls ?? []).map((_, i) => call(i))];
  }
  const text =
    typeof m.content === 'string' ? m.content : m.content === null ? '' : m.content.map((p) => p.text).join('');
  const thoughts = m.reasoning ?? '';
  let atText = 0;
  let atThought = 0;
  return layout.map((p) => {
    const sig = p.thoughtSignature !== undefined ? { thoughtSignature: p.thoughtSignature } : {};
    if (p.kind === 'part') return p.part as Part;
    if (p.kind === 'functionCall') return { ...call(p.call as number), ...sig };
    if (p.kind === 'thought')
      return { text: thoughts.slice(atThought, (atThought += p.chars as number)), thought: true, ...sig };
    return { text: text.slice(atText, (atText += p.chars as number)), ...sig };
  });
}

function fromCanonical(history: History, options: ConvertOptions = {}): unknown {
  const key = options.geminiNativeKey ?? DEFAULT_GEMINI_NATIVE_KEY;
  const out: { systemInstruction?: unknown; contents: { role: string; parts: Part[] }[] } = { contents: [] };
  history.messages.forEach((m, i) => {
    const at = `/messages/${i}`;
    const last = out.contents.at(-1);
    const afterTool = history.messages[i - 1]?.role === 'tool' && last !== undefined;
    if (m.role === 'system') {
      if (i !== 0) throw new HistoryFormatError(at, 'Gemini holds one systemInstruction, before the conversation');
      out.systemInstruction = { parts: partsOf(m.content) };
    } else if (m.role === 'tool') {
      const call = history.messages
        .slice(0, i)
        .flatMap((x) => x.tool_calls ?? [])
        .find((c) => c.id === m.tool_call_id);
      const text =
        typeof m.content === 'string' ? m.content : m.content === null ? '' : m.content.map((p) => p.text).join('');
      let response: unknown;
      try {
        response = JSON.parse(text);
      } catch {
        response = undefined;
      }
      const part = {
        functionResponse: {
          name: m.name ?? call?.function.name ?? 'tool',
          response: isObject(response) ? response : { result: text },
          ...(m.tool_call_id && !GENERATED_ID.test(m.tool_call_id) ? { id: m.tool_call_id } : {}),
        },
      };
      if (afterTool) last.parts.push(part);
      else out.contents.push({ role: 'user', parts: [part] });
    } else if (m.role === 'user') {
      if (afterTool) last.parts.push(...partsOf(m.content));
      else out.contents.push({ role: 'user', parts: partsOf(m.content) });
    } else {
      out.contents.push({ role: 'model', parts: modelParts(m, at, key) });
    }
  });
  return out;
}

export const geminiContentsFormat: HistoryFormat = { id: 'gemini-contents', shape: SHAPE, toCanonical, fromCanonical };
