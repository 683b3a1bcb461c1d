import type { Content, History, Message, NativeCarrierRecord, ToolCall } from '../../shared/history/history.js';
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
 * An exported OpenAI chat-completions history: `{"messages": [...]}` or the bare array. Beside the
 * standard carriers it reads where other surfaces of the same wire put theirs:
 * - Gemini's OpenAI-compatible endpoint: `extra_content.google.thought_signature` on the message
 *   (a text turn) and on `tool_calls[i]`; some clients store it as `function.thought_signature`;
 * - GitHub Copilot: `reasoning_opaque`, `reasoning_text` and `function.thought_signature`;
 * - OpenRouter: `reasoning_details` (kept verbatim, signatures and all).
 * A signature becomes the owning route's native record, so it only ever travels back there.
 */
const SHAPE =
  '{"messages": [{"role", "content", "tool_calls"?, "tool_call_id"?, "name"?, "reasoning_content"?, "reasoning"?, "reasoning_details"?, "extra_content"?: {"google": {"thought_signature"}}, "reasoning_opaque"?, "reasoning_text"?}]}';
const MESSAGE_KEYS = [
  'role',
  'content',
  'name',
  'tool_calls',
  'tool_call_id',
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'extra_content',
  'reasoning_opaque',
  'reasoning_text',
];
const ROLES = ['system', 'user', 'assistant', 'tool'];

function googleSignature(extra: unknown, at: string): string | undefined {
  if (extra === undefined) return undefined;
  if (!isObject(extra)) throw new HistoryFormatError(at, 'extra_content must be an object');
  onlyKeys(extra, ['google'], at, 'only extra_content.google.thought_signature is read');
  if (!isObject(extra.google)) throw new HistoryFormatError(`${at}/google`, 'must be an object');
  onlyKeys(extra.google, ['thought_signature'], `${at}/google`, 'only extra_content.google.thought_signature is read');
  return expectString(extra.google.thought_signature, `${at}/google/thought_signature`, 'thought_signature');
}

function readContent(value: unknown, at: string): Content {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value))
    throw new HistoryFormatError(at, 'content must be a string, null or an array of text parts');
  return value.map((part, i) => {
    if (!isObject(part) || part.type !== 'text')
      throw new HistoryFormatError(
        `${at}/${i}`,
        'only text parts have a place in the canonical history',
        'images and audio are not reasoning carriers; remove them or export the conversation without them',
      );
    onlyKeys(part, ['type', 'text'], `${at}/${i}`, 'a text part is {"type": "text", "text"}');
    return { type: 'text' as const, text: expectString(part.text, `${at}/${i}/text`, 'text') };
  });
}

const textLength = (content: Content) =>
  content === null ? 0 : typeof content === 'string' ? content.length : content.reduce((n, p) => n + p.text.length, 0);

interface CallSignatures {
  google: (string | undefined)[];
  fn: (string | undefined)[];
}

function readToolCalls(value: unknown, at: string, notes: string[]): { calls: ToolCall[]; sigs: CallSignatures } {
  if (!Array.isArray(value)) throw new HistoryFormatError(at, 'tool_calls must be an array');
  const sigs: CallSignatures = { google: [], fn: [] };
  const calls = value.map((raw, i): ToolCall => {
    const here = `${at}/${i}`;
    if (!isObject(raw)) throw new HistoryFormatError(here, 'a tool call must be an object');
    onlyKeys(
      raw,
      ['id', 'type', 'function', 'extra_content'],
      here,
      'a tool call is {"id", "type": "function", "function": {"name", "arguments"}, "extra_content"?}',
    );
    if (raw.type !== 'function')
      throw new HistoryFormatError(`${here}/type`, 'only "function" tool calls have a place in the canonical history');
    if (!isObject(raw.function)) throw new HistoryFormatError(`${here}/function`, 'must be an object');
    onlyKeys(
      raw.function,
      ['name', 'arguments', 'thought_signature'],
      `${here}/function`,
      'a function is {"name", "arguments", "thought_signature"?}',
    );
    sigs.google.push(googleSignature(raw.extra_content, `${here}/extra_content`));
    const fnSig =
      raw.function.thought_signature === undefined
        ? undefined
        : expectString(raw.function.thought_signature, `${here}/function/thought_signature`, 'thought_signature');
    sigs.fn.push(fnSig);
    return {
      id: expectString(raw.id, `${here}/id`, 'id'),
      type: 'function',
      function: {
        name: expectString(raw.function.name, `${here}/function/name`, 'name'),
        arguments: expectString(raw.function.arguments, `${here}/function/arguments`, 'arguments'),
      },
    };
  });
  if (sigs.fn.some((s) => s !== undefined))
    notes.push(
      `${at}: function.thought_signature read as the signature of its call (written back as extra_content.google.thought_signature)`,
    );
  return { calls, sigs };
}

/**
 * Keys the OpenAI SDKs write on every exported message (`message.model_dump()`), empty when unused:
 * null or [] carries nothing, so such a key is read as absent; a non-empty one is refused as usual.
 */
const EMPTY_SDK_KEYS = ['refusal', 'audio', 'function_call', 'annotations', 'tool_calls'];

function withoutEmptySdkKeys(raw: Record<string, unknown>, at: string, notes: string[]): Record<string, unknown> {
  const out = { ...raw };
  for (const key of EMPTY_SDK_KEYS) {
    const v = out[key];
    if (v === null || (Array.isArray(v) && v.length === 0 && key !== 'tool_calls')) {
      delete out[key];
      notes.push(`${at}/${key}: empty (${JSON.stringify(v)}), read as absent`);
    }
  }
  return out;
}

function readMessage(input: unknown, at: string, options: ConvertOptions, notes: string[]): Message {
  if (!isObject(input)) throw new HistoryFormatError(at, 'a message must be an object');
  const raw = withoutEmptySdkKeys(input, at, notes);
  onlyKeys(raw, MESSAGE_KEYS, at, `an openai-chat message is ${SHAPE}`);
  if (!ROLES.includes(raw.role as string))
    throw new HistoryFormatError(
      `${at}/role`,
      `role ${JSON.stringify(raw.role)} has no place in the canonical history`,
      'roles: system, user, assistant, tool (write a "developer" message as "system")',
    );
  const message: Message = { role: raw.role as Message['role'], content: readContent(raw.content, `${at}/content`) };
  if (raw.content === undefined && raw.role !== 'assistant')
    throw new HistoryFormatError(`${at}/content`, 'missing content');
  if (raw.name !== undefined) message.name = expectString(raw.name, `${at}/name`, 'name');
  if (raw.tool_call_id !== undefined)
    message.tool_call_id = expectString(raw.tool_call_id, `${at}/tool_call_id`, 'tool_call_id');
  if (raw.reasoning_content !== undefined)
    message.reasoning_content = expectString(raw.reasoning_content, `${at}/reasoning_content`, 'reasoning_content');
  if (raw.reasoning !== undefined) message.reasoning = expectString(raw.reasoning, `${at}/reasoning`, 'reasoning');
  if (raw.reasoning_details !== undefined)
    message.reasoning_details = raw.reasoning_details as Message['reasoning_details']; // verbatim; the history schema checks each item
  const { calls, sigs } =
    raw.tool_calls === undefined
      ? { calls: [], sigs: { google: [], fn: [] } as CallSignatures }
      : readToolCalls(raw.tool_calls, `${at}/tool_calls`, notes);
  if (raw.tool_calls !== undefined) message.tool_calls = calls;
  const textSig = googleSignature(raw.extra_content, `${at}/extra_content`);
  const copilot = raw.reasoning_opaque !== undefined || raw.reasoning_text !== undefined;
  if (copilot) {
    if (textSig !== undefined || sigs.google.some((s) => s !== undefined))
      throw new HistoryFormatError(
        at,
        'holds both Copilot and Gemini carriers; a message has one native record',
        'split the message or drop one carrier',
      );
    message.native = copilotRecord(raw, sigs.fn, at);
  } else {
    const perCall = sigs.google.map((g, i) => {
      if (g !== undefined && sigs.fn[i] !== undefined && g !== sigs.fn[i])
        throw new HistoryFormatError(`${at}/tool_calls/${i}`, 'carries two different thought signatures');
      return g ?? sigs.fn[i];
    });
    if (textSig !== undefined || perCall.some((s) => s !== undefined)) {
      const parts: Record<string, unknown>[] = [];
      if (textSig !== undefined || textLength(message.content) > 0)
        parts.push({
          kind: 'text',
          chars: textLength(message.content),
          ...(textSig !== undefined ? { thoughtSignature: textSig } : {}),
        });
      perCall.forEach((sig, call) =>
        parts.push({ kind: 'functionCall', call, ...(sig !== undefined ? { thoughtSignature: sig } : {}) }),
      );
      message.native = { route: options.geminiNativeKey ?? DEFAULT_GEMINI_NATIVE_KEY, fields: { parts } };
    }
  }
  return message;
}

function copilotRecord(raw: Record<string, unknown>, fnSigs: (string | undefined)[], at: string): NativeCarrierRecord {
  const fields: Record<string, unknown> = {};
  if (raw.reasoning_opaque !== undefined)
    fields.reasoning_opaque = expectString(raw.reasoning_opaque, `${at}/reasoning_opaque`, 'reasoning_opaque');
  // Kept as the text itself: the message's own `reasoning` (if any) stays what it was.
  if (raw.reasoning_text !== undefined)
    fields.reasoning_text = expectString(raw.reasoning_text, `${at}/reasoning_text`, 'reasoning_text');
  const signed = fnSigs.flatMap((s, i) => (s !== undefined ? [[s, i] as const] : []));
  if (signed.length > 1)
    throw new HistoryFormatError(
      `${at}/tool_calls/${signed[1]![1]}/function/thought_signature`,
      'Copilot keeps one thought_signature per answer; this message has several',
    );
  if (signed[0]) {
    fields.thought_signature = signed[0][0];
    fields.thought_signature_call = signed[0][1];
  }
  if (fields.reasoning_text !== undefined && fields.reasoning_opaque === undefined)
    throw new HistoryFormatError(
      `${at}/reasoning_text`,
      'reasoning_text without reasoning_opaque is not a Copilot carrier the replay can send back',
      'store readable reasoning as "reasoning"',
    );
  return { route: 'copilot', fields };
}

function toCanonical(value: unknown, options: ConvertOptions = {}): Converted {
  const messages = Array.isArray(value) ? value : isObject(value) ? value.messages : undefined;
  const base = Array.isArray(value) ? '' : '/messages';
  if (!Array.isArray(messages))
    throw new HistoryFormatError(base || '/', 'expected {"messages": [...]} or an array of messages', SHAPE);
  if (isObject(value))
    onlyKeys(
      value,
      ['messages'],
      '',
      'an exported history is {"messages": [...]}; request options (model, tools) are not history',
    );
  const notes: string[] = [];
  return { history: { messages: messages.map((m, i) => readMessage(m, `${base}/${i}`, options, notes)) }, notes };
}

function fromCanonical(history: History, options: ConvertOptions = {}): unknown {
  const geminiKeys = new Set([options.geminiNativeKey ?? DEFAULT_GEMINI_NATIVE_KEY]);
  return {
    messages: history.messages.map((m, i) => {
      const { native, tool_calls, ...rest } = m;
      const out: Record<string, unknown> = { ...rest };
      const calls: Record<string, unknown>[] | undefined = tool_calls?.map((c) => ({
        ...c,
        function: { ...c.function },
      }));
      if (native && geminiKeys.has(native.route)) {
        for (const part of (native.fields.parts ?? []) as {
          kind: string;
          call?: number;
          thoughtSignature?: string;
        }[]) {
          if (part.thoughtSignature === undefined) continue;
          const google = { google: { thought_signature: part.thoughtSignature } };
          if (part.kind === 'text') out.extra_content = google;
          else if (part.kind === 'functionCall' && calls?.[part.call!]) calls[part.call!]!.extra_content = google;
          else
            throw new HistoryFormatError(
              `/messages/${i}/native`,
              `a signed ${part.kind} part has no place on the openai-chat wire`,
            );
        }
      } else if (native?.route === 'copilot') {
        const f = native.fields;
        if (f.reasoning_opaque !== undefined) out.reasoning_opaque = f.reasoning_opaque;
        if (typeof f.reasoning_text === 'string') out.reasoning_text = f.reasoning_text;
        else if (f.reasoning_text === true && m.reasoning !== undefined) out.reasoning_text = m.reasoning;
        if (typeof f.thought_signature === 'string' && calls?.[f.thought_signature_call as number])
          (calls[f.thought_signature_call as number]!.function as Record<string, unknown>).thought_signature =
            f.thought_signature;
      } else if (native) {
        throw new HistoryFormatError(
          `/messages/${i}/native`,
          `a "${native.route}" native record has no place on the openai-chat wire`,
        );
      }
      if (calls) out.tool_calls = calls;
      return out;
    }),
  };
}

export const openaiChatFormat: HistoryFormat = { id: 'openai-chat', shape: SHAPE, toCanonical, fromCanonical };
