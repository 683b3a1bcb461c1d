import { isPlainObject } from '../objects/deep-merge.js';

/** One reasoning block as a body carries it: its readable text and its signature (or opaque blob), each if any. */
export interface ReasoningBlock {
  text?: string;
  signature?: string;
  /** JSON pointer of the block in the body. */
  at: string;
}

/** The reasoning a request or an answer carries, read the same way in every wire family. */
export interface CarrierValues {
  blocks: ReasoningBlock[];
  /** Every signature or opaque reasoning blob, non-empty. */
  signatures: string[];
  /** Ids that name a tool call (and so the assistant turn that made it). */
  callIds: string[];
}

/** Keys whose string value is a signature or an opaque reasoning blob, in every family the mocks speak. */
const SIGNATURE_KEYS = new Set([
  'signature',
  'thoughtSignature',
  'thought_signature',
  'encrypted_content',
  'redactedContent',
  'reasoning_opaque',
]);
/** Keys naming a tool call by id. */
const CALL_ID_KEYS = new Set(['call_id', 'toolUseId', 'tool_use_id', 'tool_call_id']);
/** Object types whose `id` names a tool call. */
const CALL_TYPES = new Set(['tool_use', 'function_call', 'function']);
/** Object types whose `text` / `data` is reasoning. */
const TEXT_TYPES = new Set(['reasoning.text', 'summary_text', 'reasoning_text']);
const BLOB_TYPES = new Set(['reasoning.encrypted', 'redacted_thinking']);

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Walks a body for reasoning blocks, signatures and tool-call ids. Wire shapes read: Anthropic `thinking` /
 * `redacted_thinking`, Bedrock `reasoningContent.reasoningText`, Gemini `thought` parts and `thoughtSignature`,
 * Responses `reasoning` items, OpenRouter `reasoning_details`, chat `tool_calls`.
 */
export function carrierValues(body: unknown): CarrierValues {
  const out: CarrierValues = { blocks: [], signatures: [], callIds: [] };
  const walk = (value: unknown, at: string, parentKey: string): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${at}/${i}`, parentKey));
      return;
    }
    if (!isPlainObject(value)) return;
    const type = typeof value.type === 'string' ? value.type : undefined;
    const block: ReasoningBlock = { at };
    let isBlock = false;
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string') {
        if (SIGNATURE_KEYS.has(key)) {
          isBlock = true;
          block.signature = v;
          if (v !== '') out.signatures.push(v);
        } else if (key === 'data' && type !== undefined && BLOB_TYPES.has(type)) {
          isBlock = true;
          block.signature = v;
          if (v !== '') out.signatures.push(v);
        } else if (key === 'thinking' && (type === 'thinking' || type === undefined)) {
          isBlock = true;
          block.text = v;
        } else if (
          key === 'text' &&
          ((type !== undefined && TEXT_TYPES.has(type)) || value.thought === true || parentKey === 'reasoningText')
        ) {
          isBlock = true;
          block.text = v;
        } else if (CALL_ID_KEYS.has(key) && v !== '') {
          out.callIds.push(v);
        } else if (key === 'id' && v !== '' && ((type !== undefined && CALL_TYPES.has(type)) || 'function' in value)) {
          out.callIds.push(v);
        }
      } else {
        walk(v, `${at}/${escape(key)}`, key);
      }
    }
    if (isBlock) out.blocks.push(block);
  };
  walk(body, '', '');
  return out;
}
