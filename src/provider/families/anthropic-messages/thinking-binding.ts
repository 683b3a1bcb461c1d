import { createHash } from 'node:crypto';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { catalogueEntry } from '../../../shared/provider-specs/model-catalogue.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { atPointer } from '../../rules/message-echo-judge.js';
import {
  BINDING_DIGEST_HEX,
  mockBindSignature,
  mockSignatureBinding,
  type SignatureBinding,
} from '../../signing/mock-signature.js';

/**
 * Thinking bound to its conversation (Claude Fable 5.1 and later, spec `response.thinkingBinding`): a thinking block's
 * signature is bound to the conversation before it (system, tools, earlier messages) and to the model that wrote it.
 * The mock binds the signatures it issues to a live request, then reads the binding back out of a replayed block, as
 * the provider reads it out of its own opaque blob.
 */

/** How a model treats the binding: checks it, records it without checking, or does not bind. */
export type BindingMode = 'enforced' | 'recorded' | undefined;

export function bindingMode(spec: ProviderSpec, model: string | undefined): BindingMode {
  const binding = spec.response.thinkingBinding;
  if (!binding || model === undefined) return undefined;
  if (new RegExp(binding.enforced).test(model)) return 'enforced';
  return binding.recorded !== undefined && new RegExp(binding.recorded).test(model) ? 'recorded' : undefined;
}

/** What a failed check does: refuse the request (the API's default) or drop the block and say so. */
export function mismatchBehavior(spec: ProviderSpec, body: Readonly<Record<string, unknown>>): 'error' | 'drop_block' {
  const pointer = spec.response.thinkingBinding?.pointer;
  return pointer !== undefined && atPointer(body, pointer) === 'drop_block' ? 'drop_block' : 'error';
}

/** Whether the request opted into the binding controls (thinking.block_binding needs the beta that reports them). */
export function bindingControlsAsked(body: Readonly<Record<string, unknown>>): boolean {
  return (
    isPlainObject(body.thinking) && body.thinking.block_binding !== undefined && body.thinking.block_binding !== null
  );
}

const REASONING = new Set(['thinking', 'redacted_thinking']);

/** Drops the keys that do not change what the model reads: cache breakpoints. */
function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, v]) => [key, withoutCacheControl(v)]),
  );
}

/**
 * The conversation a block at message `upTo` stands after, as the model reads it: the system prompt, the tools, and the
 * messages before it with string content read as one text block. Reasoning blocks are left out: an agent may omit
 * earlier turns' thinking and the API accepts that (src/provider/rules/claude-tool-loop.ts), so leaving them out must not
 * unbind the blocks after them.
 */
function conversationBefore(body: Readonly<Record<string, unknown>>, upTo: number): unknown {
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  const messages = (Array.isArray(body.messages) ? body.messages : []).slice(0, upTo).map((m: unknown) => {
    if (!isPlainObject(m)) return m;
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    return {
      role: m.role,
      content: Array.isArray(content)
        ? content.filter((b) => !(isPlainObject(b) && REASONING.has(String(b.type))))
        : content,
    };
  });
  return withoutCacheControl([system, body.tools ?? [], messages]);
}

/** Canonical JSON: keys sorted, so two spellings of one conversation digest alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const digest = (text: string, hex: number) => createHash('sha256').update(text).digest('hex').slice(0, hex);

/** The binding a block in message `upTo` of this request gets from this model (a catalogue alias binds as its id). */
export function bindingFor(
  spec: ProviderSpec,
  model: string,
  body: Readonly<Record<string, unknown>>,
  upTo: number,
): SignatureBinding {
  return {
    conversation: digest(canonical(conversationBefore(body, upTo)), BINDING_DIGEST_HEX.conversation),
    model: digest(catalogueEntry(spec, model)?.id ?? model, BINDING_DIGEST_HEX.model),
  };
}

/**
 * The signature of a thinking block the mock issues in answer to `request`, bound to its conversation (every message
 * of the request) and model when the model binds; otherwise the signature as it is.
 */
export function bindIssuedSignature(
  spec: ProviderSpec,
  model: string,
  request: Readonly<Record<string, unknown>> | undefined,
  signature: string,
): string {
  if (!request || !bindingMode(spec, model)) return signature;
  const messages = Array.isArray(request.messages) ? request.messages.length : 0;
  return mockBindSignature(signature, bindingFor(spec, model, request, messages));
}

/** One replayed thinking block that fails the binding check, as input_transformations names it. */
export interface BindingFailure {
  index: number;
  block: number;
  path: string;
  reason: 'model_binding_mismatch' | 'prefix_binding_mismatch';
}

/**
 * The replayed thinking blocks that fail the check for this request and model. A block whose binding names another
 * model fails with model_binding_mismatch, one whose conversation changed with prefix_binding_mismatch (the SDK's order
 * of precedence); a failing block takes the rest of its turn's consecutive thinking blocks with it, each with its
 * reason. A block that carries no binding (issued before binding, or by a synthesized fixture) is let through: the
 * mock cannot tell it from one the real API would still take.
 */
export function bindingFailures(
  spec: ProviderSpec,
  model: string | undefined,
  body: Readonly<Record<string, unknown>>,
): BindingFailure[] {
  if (model === undefined || !bindingMode(spec, model) || !Array.isArray(body.messages)) return [];
  const failures: BindingFailure[] = [];
  body.messages.forEach((message: unknown, index: number) => {
    if (!isPlainObject(message) || message.role !== 'assistant' || !Array.isArray(message.content)) return;
    let expected: SignatureBinding | undefined;
    let failing: BindingFailure['reason'] | undefined;
    message.content.forEach((block: unknown, at: number) => {
      if (!isPlainObject(block) || block.type !== 'thinking') {
        failing = undefined;
        return;
      }
      const bound = mockSignatureBinding(block.signature);
      if (bound) {
        expected ??= bindingFor(spec, model, body, index);
        const reason =
          bound.model !== expected.model
            ? 'model_binding_mismatch'
            : bound.conversation !== expected.conversation
              ? 'prefix_binding_mismatch'
              : undefined;
        if (reason) failing = reason;
      }
      if (failing) failures.push({ index, block: at, path: `messages.${index}.content.${at}`, reason: failing });
    });
  });
  return failures;
}

/**
 * The answer's input_transformations (SDK BetaInputTransformation) when the request opted into the binding controls:
 * blocks dropped (an enforcing model under drop_block) or shown all the same (a model that only records the binding);
 * `[]` when there is nothing to report; undefined when the answer carries no such member.
 */
export function inputTransformations(
  spec: ProviderSpec,
  model: string | undefined,
  request: Readonly<Record<string, unknown>> | undefined,
): Record<string, string>[] | undefined {
  if (!request || model === undefined || !bindingControlsAsked(request)) return undefined;
  const mode = bindingMode(spec, model);
  if (!mode) return undefined;
  const type = mode === 'recorded' ? 'thinking_mismatch_allowed' : 'thinking_dropped';
  return bindingFailures(spec, model, request).map((f) => ({ type, path: f.path, reason: f.reason }));
}
