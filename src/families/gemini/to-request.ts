import type { History, Message } from '../../model/history.js';
import { selectCarriers } from '../../replay/select-carriers.js';
import type { RoutePolicy } from '../../routes/route-table.js';
import { deepMerge, isPlainObject } from '../../util/deep-merge.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import { HistoryShapeError } from '../history-shape-error.js';
import { expectedNativeShape } from '../../model/native-record-shapes.js';
import { isFlatGeminiRecord, layoutFromFlatSignature, readGeminiNativeFields, UnreadableGeminiRecord, usableSignature, SKIP_SIGNATURE, type GeminiPartRecord } from './gemini-native.js';

type Part = Record<string, unknown>;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

function textOf(content: Message['content']): string {
  if (content === null) return '';
  return typeof content === 'string' ? content : content.map((p) => p.text).join('');
}

function functionCallPart(message: Message, index: number): Part {
  const call = message.tool_calls![index]!;
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    args = {};
  }
  // Gemini's args is a Struct: a JSON object. Anything else is wrapped so the request stays valid.
  return { functionCall: { name: call.function.name, args: isPlainObject(args) ? args : { value: args } } };
}

/**
 * Why the recorded part sequence no longer describes this message (history edited after
 * capture), or undefined when it does: the same visible text and thought text lengths, the same
 * tool calls. Its signatures would otherwise sit on parts they were not issued for.
 */
function layoutMismatch(message: Message, layout: GeminiPartRecord[]): string | undefined {
  const calls = message.tool_calls ?? [];
  const total = (kind: 'text' | 'thought') => layout.reduce((n, p) => n + (p.kind === kind ? p.chars : 0), 0);
  const callIndexes = layout.flatMap((p) => (p.kind === 'functionCall' ? [p.call] : []));
  const content = textOf(message.content).length;
  const thoughts = (message.reasoning ?? '').length;
  if (total('text') !== content) return `its text parts hold ${total('text')} characters but the message content has ${content}`;
  if (total('thought') !== thoughts) return `its thought parts hold ${total('thought')} characters but the message reasoning has ${thoughts}`;
  if (callIndexes.length !== calls.length || callIndexes.some((c, i) => c !== i))
    return `its functionCall parts point at calls [${callIndexes.join(', ')}] but the message has ${calls.length} tool call(s)`;
  return undefined;
}

function recordedParts(message: Message, layout: GeminiPartRecord[]): Part[] {
  const content = textOf(message.content);
  const thoughts = message.reasoning ?? '';
  let atText = 0;
  let atThought = 0;
  return layout.map((p) => {
    if (p.kind === 'part') return { ...p.part };
    const sig = p.thoughtSignature !== undefined ? { thoughtSignature: p.thoughtSignature } : {};
    if (p.kind === 'functionCall') return { ...functionCallPart(message, p.call), ...sig };
    if (p.kind === 'thought') {
      const text = thoughts.slice(atThought, (atThought += p.chars));
      return { text, thought: true, ...sig };
    }
    const text = content.slice(atText, (atText += p.chars));
    return { text, ...sig };
  });
}

/**
 * The part layout of the route's own record for this message: recorded, or derived from the flat
 * form by Google's rule. A record this route cannot read is refused with its JSON pointer and the
 * shape it should have, never dropped without a word.
 */
function nativeLayout(message: Message, index: number, policy: RoutePolicy): GeminiPartRecord[] | undefined {
  const native = selectCarriers(message, policy).native;
  const at = `/messages/${index}/native/fields`;
  const refuse = (pointer: string, problem: string): never => {
    throw new HistoryShapeError(`${at}${pointer}`, `unreadable ${policy.native} native record: ${problem}`, expectedNativeShape(policy.native ?? 'gemini'));
  };
  if (isFlatGeminiRecord(native)) {
    const signature = usableSignature(native.thoughtSignature);
    if (signature === undefined) return refuse('/thoughtSignature', 'the signature is empty or not a string ("Corrupted thought signature" on Gemini)');
    return layoutFromFlatSignature(signature, textOf(message.content).length, message.tool_calls?.length ?? 0);
  }
  let layout: GeminiPartRecord[] | undefined;
  try {
    layout = readGeminiNativeFields(native);
  } catch (err) {
    if (err instanceof UnreadableGeminiRecord) return refuse(err.at, `${err.at ? 'the part ' : 'the record '}${err.problem}`);
    throw err;
  }
  if (!layout) return undefined;
  const mismatch = layoutMismatch(message, layout);
  if (mismatch) return refuse('/parts', `it no longer fits the message (${mismatch}); was the message edited after capture?`);
  return layout;
}

function modelParts(message: Message, index: number, policy: RoutePolicy): Part[] {
  const layout = nativeLayout(message, index, policy);
  if (layout) return recordedParts(message, layout);
  const parts: Part[] = [];
  const text = textOf(message.content);
  if (text !== '') parts.push({ text });
  (message.tool_calls ?? []).forEach((_, i) => parts.push(functionCallPart(message, i)));
  return parts;
}

/** The function name a tool result answers: Gemini pairs responses to calls by name. */
function calledName(history: History, upTo: number, toolCallId: string | undefined): string | undefined {
  for (let i = upTo - 1; i >= 0; i--) {
    const call = history.messages[i]!.tool_calls?.find((c) => c.id === toolCallId);
    if (call) return call.function.name;
  }
  return undefined;
}

function functionResponse(history: History, index: number): Part {
  const message = history.messages[index]!;
  const text = textOf(message.content);
  let response: unknown;
  // Only an object is used below, and most tool output is plain text: a failed parse per tool
  // result was the largest cost of building a long Gemini request (bench: replay-engine/gemini).
  if (text.trimStart().startsWith('{')) {
    try {
      response = JSON.parse(text);
    } catch {
      response = undefined;
    }
  }
  const name = calledName(history, index, message.tool_call_id) ?? message.name ?? message.tool_call_id ?? 'tool';
  return { functionResponse: { name, response: isPlainObject(response) ? response : { result: text } } };
}

/**
 * Gemini 3 validates signatures on the current turn only (the model steps after the last user
 * message with text): there the first functionCall part of each step must carry one. A step that
 * has none (captured elsewhere) gets Google's documented stand-in; a real signature is never
 * replaced, and earlier turns are left as they are.
 */
function padCurrentTurn(contents: Content[]): void {
  const lastUserText = contents.reduce((at, c, i) => (c.role === 'user' && c.parts.some((p) => typeof p.text === 'string') ? i : at), -1);
  for (const content of contents.slice(lastUserText + 1)) {
    if (content.role !== 'model') continue;
    const first = content.parts.find((p) => p.functionCall !== undefined);
    if (first && first.thoughtSignature === undefined) first.thoughtSignature = SKIP_SIGNATURE;
  }
}

/** OpenAI-style tool definitions -> one Gemini tool of functionDeclarations; other shapes pass as given. */
function geminiTools(tools: unknown[]): unknown[] {
  const declarations: unknown[] = [];
  const other: unknown[] = [];
  for (const tool of tools) {
    if (isPlainObject(tool) && tool.type === 'function' && isPlainObject(tool.function)) {
      const { name, description, parameters } = tool.function;
      declarations.push({ name, ...(description !== undefined ? { description } : {}), ...(parameters !== undefined ? { parameters } : {}) });
    } else other.push(tool);
  }
  return [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...other];
}

/**
 * History -> a generateContent body. System messages become systemInstruction; consecutive tool
 * results become one user turn of functionResponse parts (one per parallel call, as Gemini wants);
 * an assistant turn is rebuilt from its native record, part for part, only on the route owning it.
 */
export function toGeminiRequest(history: History, policy: RoutePolicy, options: RequestOptions = {}): OutboundRequest {
  const contents: Content[] = [];
  const system: Part[] = [];
  history.messages.forEach((message, index) => {
    if (message.role === 'system') {
      system.push({ text: textOf(message.content) });
    } else if (message.role === 'user') {
      contents.push({ role: 'user', parts: [{ text: textOf(message.content) }] });
    } else if (message.role === 'assistant') {
      const parts = modelParts(message, index, policy);
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else {
      const part = functionResponse(history, index);
      const last = contents.at(-1);
      const previous = history.messages[index - 1];
      if (last && last.role === 'user' && previous?.role === 'tool') last.parts.push(part);
      else contents.push({ role: 'user', parts: [part] });
    }
  });
  padCurrentTurn(contents);
  let body: Record<string, unknown> = { contents };
  if (system.length > 0) body.systemInstruction = { parts: system };
  if (options.tools && options.tools.length > 0) body.tools = geminiTools(options.tools);
  // Thought summaries are what the readable `reasoning` carrier is made of; ask for them.
  body.generationConfig = { thinkingConfig: { includeThoughts: true } };
  if (Object.keys(policy.flags).length > 0) body = deepMerge(body, policy.flags);
  const model = encodeURIComponent(policy.target.model);
  return {
    family: 'gemini',
    method: 'POST',
    path: options.stream ? `/models/${model}:streamGenerateContent?alt=sse` : `/models/${model}:generateContent`,
    headers: { 'content-type': 'application/json' },
    body,
  };
}
