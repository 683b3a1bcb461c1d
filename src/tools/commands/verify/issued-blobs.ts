import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { FamilyId } from '../../../shared/wire/families.js';

/**
 * A signed or encrypted blob a live provider issued in one answer, with what the mock placeholders
 * say about such a blob (src/tools/services/real-world-cases/resolve-placeholders.ts): a Claude signature is bound
 * to its text and its place among the message's reasoning blocks, a Responses blob to its item.
 * Read from the answer as the provider sent it, never from the engine: the engine under test is
 * what may lose one.
 */
export type IssuedBlob =
  | { kind: 'claude-signature'; value: string; text: string; ordinal: number; blocks: number; at: number }
  | { kind: 'claude-redacted'; value: string; ordinal: number; blocks: number; at: number }
  | { kind: 'gemini-thought'; value: string }
  | { kind: 'responses-encrypted'; value: string; itemId: string }
  | {
      kind: 'responses-item-id';
      value: string;
      type: 'function_call' | 'message';
      reasoningId: string;
      ordinal: number;
    };

type Obj = Record<string, unknown>;
const objects = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isPlainObject) : []);
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

type ClaudeRead =
  { kind: 'claude-signature'; value: string; text: string } | { kind: 'claude-redacted'; value: string };

/**
 * Claude content blocks (Anthropic Messages, or Bedrock's reasoningContent) with their places:
 * `read` says what a block is (a signed block, or 'unsigned' reasoning, which still takes an
 * ordinal), undefined for a block that is not reasoning.
 */
function claudeBlocks(content: Obj[], read: (block: Obj) => ClaudeRead | 'unsigned' | undefined): IssuedBlob[] {
  const found: Array<{ blob: ClaudeRead | undefined; at: number }> = [];
  content.forEach((block, at) => {
    const kind = read(block);
    if (kind !== undefined) found.push({ blob: kind === 'unsigned' ? undefined : kind, at });
  });
  return found.flatMap(({ blob, at }, ordinal) => (blob ? [{ ...blob, ordinal, blocks: found.length, at }] : []));
}

function anthropicBlobs(body: Obj): IssuedBlob[] {
  return claudeBlocks(objects(body.content), (b) => {
    if (b.type === 'thinking') {
      const value = str(b.signature);
      return value
        ? { kind: 'claude-signature', value, text: typeof b.thinking === 'string' ? b.thinking : '' }
        : 'unsigned';
    }
    if (b.type === 'redacted_thinking') {
      const value = str(b.data);
      return value ? { kind: 'claude-redacted', value } : 'unsigned';
    }
    return undefined;
  });
}

function bedrockBlobs(body: Obj): IssuedBlob[] {
  const output = isPlainObject(body.output) ? body.output : {};
  const message = isPlainObject(output.message) ? output.message : {};
  return claudeBlocks(objects(message.content), (b) => {
    const reasoning = b.reasoningContent;
    if (!isPlainObject(reasoning)) return undefined;
    const text = reasoning.reasoningText;
    if (isPlainObject(text)) {
      const value = str(text.signature);
      return value
        ? { kind: 'claude-signature', value, text: typeof text.text === 'string' ? text.text : '' }
        : 'unsigned';
    }
    const value = str(reasoning.redactedContent);
    return value ? { kind: 'claude-redacted', value } : 'unsigned';
  });
}

function geminiBlobs(body: Obj): IssuedBlob[] {
  const candidate = objects(body.candidates)[0] ?? {};
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  return objects(content.parts).flatMap((p) => {
    const value = str(p.thoughtSignature) ?? str(p.thought_signature);
    return value ? [{ kind: 'gemini-thought' as const, value }] : [];
  });
}

function responsesBlobs(body: Obj): IssuedBlob[] {
  const out: IssuedBlob[] = [];
  let reasoningId: string | undefined;
  const ordinals = { function_call: 0, message: 0 };
  for (const item of objects(body.output)) {
    if (item.type === 'reasoning') {
      reasoningId = str(item.id);
      ordinals.function_call = 0;
      ordinals.message = 0;
      const value = str(item.encrypted_content);
      if (value && reasoningId) out.push({ kind: 'responses-encrypted', value, itemId: reasoningId });
      continue;
    }
    if ((item.type === 'function_call' || item.type === 'message') && reasoningId) {
      const value = str(item.id);
      if (value)
        out.push({ kind: 'responses-item-id', value, type: item.type, reasoningId, ordinal: ordinals[item.type]++ });
    }
  }
  return out;
}

/** OpenRouter-style `reasoning_details` (and Gemini's OpenAI-compatible `extra_content`) of a chat answer. */
function chatBlobs(body: Obj): IssuedBlob[] {
  const choice = objects(body.choices)[0] ?? {};
  const message = isPlainObject(choice.message) ? choice.message : {};
  const details = objects(message.reasoning_details);
  const claude = details.filter((d) => d.format === undefined || d.format === 'anthropic-claude-v1');
  const out: IssuedBlob[] = [];
  for (const d of details) {
    const isClaude = claude.includes(d);
    const ordinal = claude.indexOf(d);
    if (d.type === 'reasoning.text' && isClaude) {
      const value = str(d.signature);
      if (value)
        out.push({
          kind: 'claude-signature',
          value,
          text: typeof d.text === 'string' ? d.text : '',
          ordinal,
          blocks: claude.length,
          at: ordinal,
        });
    } else if (d.type === 'reasoning.encrypted') {
      const value = str(d.data);
      if (!value) continue;
      if (d.format === 'google-gemini-v1') out.push({ kind: 'gemini-thought', value });
      else if (d.format === 'openai-responses-v1' && str(d.id))
        out.push({ kind: 'responses-encrypted', value, itemId: str(d.id)! });
      else if (isClaude) out.push({ kind: 'claude-redacted', value, ordinal, blocks: claude.length, at: ordinal });
    }
  }
  for (const call of objects(message.tool_calls)) {
    const extra = isPlainObject(call.extra_content) ? call.extra_content : {};
    const google = isPlainObject(extra.google) ? extra.google : {};
    const value = str(google.thought_signature);
    if (value) out.push({ kind: 'gemini-thought', value });
  }
  return out;
}

/** Every blob a 2xx JSON answer of `family` carries, in the order the answer holds them. */
export function issuedBlobs(family: FamilyId, body: unknown): IssuedBlob[] {
  if (!isPlainObject(body)) return [];
  switch (family) {
    case 'anthropic-messages':
      return anthropicBlobs(body);
    case 'bedrock-converse':
      return bedrockBlobs(body);
    case 'gemini':
      return geminiBlobs(body);
    case 'openai-responses':
      return responsesBlobs(body);
    case 'openai-chat':
    case 'copilot':
      return chatBlobs(body);
  }
}
