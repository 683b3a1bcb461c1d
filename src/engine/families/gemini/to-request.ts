import type { History, Message, StandardCarrierField } from '../../../shared/history/history.js';
import { selectCarriers } from '../../policy/select-carriers.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepMerge, isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import { HistoryShapeError } from '../../../shared/errors/history-shape-error.js';
import { expectedNativeShape } from '../../history/native-record-shapes.js';
import {
  isFlatGeminiRecord,
  layoutFromFlatSignature,
  readGeminiNativeFields,
  usableSignature,
  SKIP_SIGNATURE,
  type GeminiPartRecord,
} from './gemini-native.js';
import { geminiFunctionParameters } from './function-parameters.js';
import { UnreadableGeminiRecordError } from '../../../shared/errors/unreadable-gemini-record-error.js';

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
function layoutMismatch(message: Message, content: string, layout: GeminiPartRecord[]): string | undefined {
  const calls = message.tool_calls?.length ?? 0;
  const thoughts = (message.reasoning ?? '').length;
  let textChars = 0;
  let thoughtChars = 0;
  const callIndexes: number[] = [];
  for (const p of layout) {
    if (p.kind === 'text') textChars += p.chars;
    else if (p.kind === 'thought') thoughtChars += p.chars;
    else if (p.kind === 'functionCall') callIndexes.push(p.call);
  }
  if (textChars !== content.length)
    return `its text parts hold ${textChars} characters but the message content has ${content.length}`;
  if (thoughtChars !== thoughts)
    return `its thought parts hold ${thoughtChars} characters but the message reasoning has ${thoughts}`;
  if (callIndexes.length !== calls || callIndexes.some((c, i) => c !== i))
    return `its functionCall parts point at calls [${callIndexes.join(', ')}] but the message has ${calls} tool call(s)`;
  return undefined;
}

/**
 * The parts of a recorded layout. Each part is built once and its signature set on it, rather than
 * spread with a signature object into a third one; keys keep the order the spreads gave them.
 */
function recordedParts(message: Message, content: string, layout: GeminiPartRecord[]): Part[] {
  const thoughts = message.reasoning ?? '';
  let atText = 0;
  let atThought = 0;
  const parts: Part[] = [];
  for (const p of layout) {
    if (p.kind === 'part') {
      parts.push({ ...p.part });
      continue;
    }
    let part: Part;
    if (p.kind === 'functionCall') part = functionCallPart(message, p.call);
    else if (p.kind === 'thought') part = { text: thoughts.slice(atThought, (atThought += p.chars)), thought: true };
    else part = { text: content.slice(atText, (atText += p.chars)) };
    if (p.thoughtSignature !== undefined) part.thoughtSignature = p.thoughtSignature;
    parts.push(part);
  }
  return parts;
}

/** Only the native record is read here, which `omit` never touches: one empty set, not a new one per message. */
const NOTHING_OMITTED: ReadonlySet<StandardCarrierField> = new Set();

/**
 * The part layout of the route's own record for this message: recorded, or derived from the flat
 * form by Google's rule. A record this route cannot read is refused with its JSON pointer and the
 * shape it should have, never dropped without a word.
 */
function nativeLayout(
  message: Message,
  content: string,
  index: number,
  policy: RoutePolicy,
): GeminiPartRecord[] | undefined {
  const native = selectCarriers(message, policy, NOTHING_OMITTED).native;
  const at = `/messages/${index}/native/fields`;
  const refuse = (pointer: string, problem: string): never => {
    throw new HistoryShapeError(
      `${at}${pointer}`,
      `unreadable ${policy.native} native record: ${problem}`,
      expectedNativeShape(policy.native ?? 'gemini'),
    );
  };
  if (isFlatGeminiRecord(native)) {
    const signature = usableSignature(native.thoughtSignature);
    if (signature === undefined)
      return refuse(
        '/thoughtSignature',
        'the signature is empty or not a string ("Corrupted thought signature" on Gemini)',
      );
    return layoutFromFlatSignature(signature, content.length, message.tool_calls?.length ?? 0);
  }
  let layout: GeminiPartRecord[] | undefined;
  try {
    layout = readGeminiNativeFields(native);
  } catch (err) {
    if (err instanceof UnreadableGeminiRecordError)
      return refuse(err.at, `${err.at ? 'the part ' : 'the record '}${err.problem}`);
    throw err;
  }
  if (!layout) return undefined;
  const mismatch = layoutMismatch(message, content, layout);
  if (mismatch)
    return refuse('/parts', `it no longer fits the message (${mismatch}); was the message edited after capture?`);
  return layout;
}

function modelParts(message: Message, index: number, policy: RoutePolicy): Part[] {
  const content = textOf(message.content);
  const layout = nativeLayout(message, content, index, policy);
  if (layout) return recordedParts(message, content, layout);
  const parts: Part[] = [];
  if (content !== '') parts.push({ text: content });
  const calls = message.tool_calls?.length ?? 0;
  for (let i = 0; i < calls; i++) parts.push(functionCallPart(message, i));
  return parts;
}

/**
 * The function name each tool call id was last given, as the messages are read in order: Gemini
 * pairs a tool result with its call by name. The nearest earlier message holding the id wins, and
 * within one message its first call with the id. Kept as the request is built rather than searched
 * for backwards from each result: a result whose id no earlier call has (imported, or its call
 * compacted away) walked back to the first message, so a long history of them was quadratic.
 */
class CallNames {
  private readonly byId = new Map<string | undefined, string>();

  /** Notes the calls of a message just read (last call first, so the first call with an id wins). */
  note(message: Message): void {
    const calls = message.tool_calls;
    if (!calls) return;
    for (let c = calls.length - 1; c >= 0; c--) this.byId.set(calls[c]!.id, calls[c]!.function.name);
  }

  of(toolCallId: string | undefined): string | undefined {
    return this.byId.get(toolCallId);
  }
}

function functionResponse(message: Message, callNames: CallNames): Part {
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
  const name = callNames.of(message.tool_call_id) ?? message.name ?? message.tool_call_id ?? 'tool';
  return { functionResponse: { name, response: isPlainObject(response) ? response : { result: text } } };
}

/**
 * Gemini 3 validates signatures on the current turn only (the model steps after the last user
 * message with text): there the first functionCall part of each step must carry one. A step that
 * has none (captured elsewhere) gets Google's documented stand-in; a real signature is never
 * replaced, and earlier turns are left as they are.
 */
function padCurrentTurn(contents: Content[]): void {
  // From the end: only the current turn is walked, not the whole conversation.
  let lastUserText = contents.length - 1;
  while (
    lastUserText >= 0 &&
    !(contents[lastUserText]!.role === 'user' && contents[lastUserText]!.parts.some((p) => typeof p.text === 'string'))
  )
    lastUserText--;
  for (let i = lastUserText + 1; i < contents.length; i++) {
    const content = contents[i]!;
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
      declarations.push({
        name,
        ...(description !== undefined ? { description } : {}),
        ...geminiFunctionParameters(parameters),
      });
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
  const messages = history.messages;
  const callNames = new CallNames();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'system') {
      system.push({ text: textOf(message.content) });
    } else if (message.role === 'user') {
      contents.push({ role: 'user', parts: [{ text: textOf(message.content) }] });
    } else if (message.role === 'assistant') {
      const parts = modelParts(message, index, policy);
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else {
      const part = functionResponse(message, callNames);
      const last = contents.at(-1);
      const previous = messages[index - 1];
      if (last && last.role === 'user' && previous?.role === 'tool') last.parts.push(part);
      else contents.push({ role: 'user', parts: [part] });
    }
    callNames.note(message);
  }
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
