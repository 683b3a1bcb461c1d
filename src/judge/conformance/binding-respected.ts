import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { sseJsonData } from '../../shared/sse/parse-sse.js';
import type { JudgeFinding } from './verdict.js';

/**
 * The judge's own reading of thinking bound to its prefix (binding-respected). On Claude Fable 5.1 and
 * later a thinking block is bound to what stood before it when it was produced: `system`, `tools` and
 * every earlier message. Replayed after any of them changed, the block fails the prefix check: a 400
 * ("The block is bound to a different conversation"), or, with
 * thinking.block_binding.prefix_mismatch_behavior "drop_block", the API drops it and reports it in
 * input_transformations (the reasoning is lost, the request goes through). The judge remembers each
 * signature with the request that produced its answer, and compares that request's prefix with the one
 * the signature is sent under later, and the model that wrote it (the binding names the model too: sent to another
 * model, the block fails with input_transformations reason model_binding_mismatch) with the model it is sent to. Which
 * models bind is the route table's `thinkingBinding`.
 */

interface Produced {
  call: number;
  /** The model that wrote the block, when that model binds (the binding names it); undefined otherwise. */
  model?: string;
  prefix: { system: string; tools: string; messages: unknown[] };
}

const REASONING = new Set(['thinking', 'redacted_thinking']);

/** The signature (thinking) or data (redacted_thinking) of every reasoning block of an answer, body or stream. */
export function boundSignatures(answer: unknown): string[] {
  if (typeof answer !== 'string') {
    const content = isPlainObject(answer) && Array.isArray(answer.content) ? answer.content : [];
    return content.flatMap((b) =>
      isPlainObject(b) && REASONING.has(String(b.type))
        ? [b.type === 'thinking' ? b.signature : b.data].filter((s): s is string => typeof s === 'string' && s !== '')
        : [],
    );
  }
  const pieces = new Map<number, string>();
  for (const data of sseJsonData(answer)) {
    if (!isPlainObject(data) || typeof data.index !== 'number') continue;
    const delta = isPlainObject(data.delta) ? data.delta : undefined;
    if (data.type === 'content_block_delta' && delta?.type === 'signature_delta' && typeof delta.signature === 'string')
      pieces.set(data.index, (pieces.get(data.index) ?? '') + delta.signature);
    const block = isPlainObject(data.content_block) ? data.content_block : undefined;
    if (data.type === 'content_block_start' && block?.type === 'redacted_thinking' && typeof block.data === 'string')
      pieces.set(data.index, block.data);
  }
  return [...pieces.values()].filter((s) => s !== '');
}

function prefixOf(body: Record<string, unknown>, messages: unknown[]): Produced['prefix'] {
  return { system: JSON.stringify(body.system ?? null), tools: JSON.stringify(body.tools ?? null), messages };
}

/** What changed between the prefix a block was produced under and the one it is sent under, or undefined. */
function prefixChange(then: Produced['prefix'], now: Produced['prefix']): string | undefined {
  if (then.system !== now.system) return 'the system prompt';
  if (then.tools !== now.tools) return 'the tools';
  if (then.messages.length !== now.messages.length) return 'the messages before it';
  const at = then.messages.findIndex((m, i) => JSON.stringify(m) !== JSON.stringify(now.messages[i]));
  return at < 0 ? undefined : `message ${at}`;
}

export class BindingLedger {
  private readonly produced = new Map<string, Produced>();

  /**
   * Records the reasoning of an accepted answer with the request that produced it, and `model`, the model the call was
   * made to when that model binds thinking (the request body does not always name it: Vertex puts it in the path).
   */
  observe(call: number, request: unknown, answer: unknown, model?: string): void {
    if (!isPlainObject(request) || !Array.isArray(request.messages)) return;
    const prefix = prefixOf(request, request.messages);
    for (const signature of boundSignatures(answer))
      if (!this.produced.has(signature))
        this.produced.set(signature, { call, prefix, ...(model !== undefined ? { model } : {}) });
  }

  /**
   * One request to `model`, a model that binds thinking: every reasoning block it carries must sit under the prefix its
   * answer was produced under, and a block a binding model wrote must be sent to that model. `refusal` is the provider's own wording (spec rejection), for the finding.
   */
  judge(
    call: number,
    route: string,
    provider: string,
    body: unknown,
    refusal?: string,
    model?: string,
  ): JudgeFinding[] {
    if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
    const binding = isPlainObject(body.thinking) ? body.thinking.block_binding : undefined;
    const drops = isPlainObject(binding) && binding.prefix_mismatch_behavior === 'drop_block';
    const findings: JudgeFinding[] = [];
    const messages: unknown[] = body.messages;
    let checked = 0;
    messages.forEach((message, index) => {
      if (!isPlainObject(message) || !Array.isArray(message.content)) return;
      message.content.forEach((block, at) => {
        if (!isPlainObject(block) || !REASONING.has(String(block.type))) return;
        const signature = block.type === 'thinking' ? block.signature : block.data;
        const produced = typeof signature === 'string' ? this.produced.get(signature) : undefined;
        if (!produced) return;
        checked += 1;
        const otherModel =
          produced.model !== undefined && model !== undefined && produced.model.toLowerCase() !== model.toLowerCase();
        // The binding names the model as well as the prefix: another model fails it (model_binding_mismatch).
        const changed = otherModel
          ? `the model (${produced.model} wrote it, it went to ${model})`
          : prefixChange(produced.prefix, prefixOf(body, messages.slice(0, index)));
        if (!changed) return;
        findings.push({
          behaviour: 'binding-respected',
          status: drops ? 'warn' : 'fail',
          provider,
          route,
          call,
          message: index,
          detail: drops
            ? `call ${call}: messages.${index}.content.${at}, thinking from call ${produced.call}, was sent after ${changed} changed; drop_block makes the API drop it (its reasoning is lost, reported in input_transformations)`
            : `call ${call}: messages.${index}.content.${at}, thinking from call ${produced.call}, was sent after ${changed} changed: the model binds thinking to its ${otherModel ? 'model' : 'prefix'}${refusal ? ` ("${refusal}")` : ''}`,
        });
      });
    });
    if (findings.length === 0 && checked > 0)
      findings.push({
        behaviour: 'binding-respected',
        status: 'pass',
        provider,
        route,
        call,
        detail: `call ${call}: ${checked} replayed thinking block(s), each under the prefix it was produced under`,
      });
    return findings;
  }
}
