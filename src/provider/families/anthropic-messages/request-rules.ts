import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { Finding } from '../../../shared/findings/finding.js';
import { judgeClaudeMessage, type PlacedClaudeBlock } from '../../rules/claude-reasoning-blocks.js';
import { verifyMockCompaction } from '../../signing/mock-compaction.js';
import { toolLoopOpener, type LoopMessage } from '../../rules/claude-tool-loop.js';
import { bindingFailures, bindingMode, mismatchBehavior } from './thinking-binding.js';

const REASONING = new Set(['thinking', 'redacted_thinking']);

function allBlocksOf(message: unknown): Record<string, unknown>[] {
  if (!isPlainObject(message)) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content.filter(isPlainObject) : [];
}

/** The newest compaction block of a request, as message index and block index; the API ignores what stands before it. */
function newestCompaction(messages: readonly unknown[]): { index: number; block: number } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const blocks = allBlocksOf(messages[index]);
    for (let block = blocks.length - 1; block >= 0; block--)
      if (blocks[block]!.type === 'compaction') return { index, block };
  }
  return undefined;
}

function thinkingEnabled(body: Record<string, unknown>): boolean {
  return isPlainObject(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
}

/**
 * What Claude's Messages API checks about replayed reasoning (Anthropic direct, Vertex, Foundry).
 * Each rule runs only when the spec defines its rejection, so a spec states which rules its
 * endpoint enforces. Signatures are the mock's HMACs (src/provider/signing/mock-signature.ts): an edited,
 * rebuilt, reordered or foreign block fails as Anthropic documents; thinking on earlier turns
 * may be omitted altogether (only the current tool loop must open with thinking).
 */
export function judgeAnthropicMessages(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const has = (id: string) => id in spec.rejections;
  const findings: Finding[] = [];
  const messages = body.messages as unknown[];
  // Server compaction (compact_20260112): the API drops every block before the newest compaction block, so the rules
  // below judge only what follows it, and the block itself must be the one the API issued, byte for byte.
  const floor = newestCompaction(messages);
  const blocksOf = (message: unknown, index?: number): Record<string, unknown>[] => {
    const all = allBlocksOf(message);
    if (!floor || index === undefined || index > floor.index) return all;
    return index < floor.index ? [] : all.slice(floor.block + 1);
  };
  /** Where the judged blocks of message `index` start in its content (after the newest compaction block). */
  const offsetOf = (index: number) => (floor?.index === index ? floor.block + 1 : 0);
  if (floor && has('compaction-invalid')) {
    const block = allBlocksOf(messages[floor.index])[floor.block]!;
    if (!verifyMockCompaction(spec.id, block.encrypted_content)) {
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'compaction-invalid',
        params: { index: floor.index, block: floor.block, path: `messages.${floor.index}.content.${floor.block}` },
        detail: `the compaction block at message ${floor.index} block ${floor.block} is not one ${spec.label} issued, byte for byte`,
      });
    }
  }
  // Thinking bound to its conversation (Fable 5.1+): a block whose prefix or model changed is refused, unless the
  // request asks to drop it (the answer then lists it in input_transformations: render-answer.ts).
  const model = typeof body.model === 'string' ? body.model : undefined;
  if (
    has('thinking-bound-to-different-conversation') &&
    bindingMode(spec, model) === 'enforced' &&
    mismatchBehavior(spec, body) === 'error'
  ) {
    const first = bindingFailures(spec, model, body)[0];
    if (first)
      findings.push({
        rule: 'binding-respected',
        rejection: 'thinking-bound-to-different-conversation',
        params: { index: first.index, block: first.block, path: first.path, reason: first.reason },
        detail: `the thinking block at message ${first.index} block ${first.block} is bound to ${
          first.reason === 'model_binding_mismatch' ? 'another model' : 'a conversation whose prefix has since changed'
        } (${first.reason})`,
      });
  }
  const lastAssistant = messages.reduce<number>(
    (at, m, i) => (isPlainObject(m) && m.role === 'assistant' ? i : at),
    -1,
  );

  // Text blocks are checked for the whole list before any block's own rules, and named without a
  // position ("messages: text content blocks must ..."): an empty one, then a whitespace-only one.
  const texts = messages.flatMap((m, index) =>
    blocksOf(m, index).flatMap((b, seen) =>
      b.type === 'text' && typeof b.text === 'string' ? [{ index, at: seen + offsetOf(index), text: b.text }] : [],
    ),
  );
  for (const [rejection, bad] of [
    ['text-empty', (t: string) => t === ''],
    ['text-whitespace', (t: string) => t !== '' && t.trim() === ''],
  ] as const) {
    const first = texts.find((t) => bad(t.text));
    if (first && has(rejection)) {
      findings.push({
        rule: 'provider-accepts',
        rejection,
        params: { index: first.index, block: first.at, path: `messages.${first.index}.content.${first.at}.text` },
        detail: `message ${first.index} block ${first.at} is ${rejection === 'text-empty' ? 'empty' : 'only whitespace'}`,
      });
    }
  }

  messages.forEach((message, index) => {
    if (!isPlainObject(message) || message.role !== 'assistant') return;
    const reasoning: PlacedClaudeBlock[] = [];
    blocksOf(message, index).forEach((block, seen) => {
      const at = seen + offsetOf(index);
      if (!REASONING.has(String(block.type))) return;
      const kind = block.type === 'thinking' ? 'thinking' : 'redacted_thinking';
      reasoning.push({
        at,
        block: {
          kind,
          thinking: block.thinking,
          signature: block.signature,
          data: block.data,
          hasThinkingKey: 'thinking' in block,
          hasSignatureKey: 'signature' in block,
        },
      });
    });
    for (const { verdict, at, ordinal, dropped } of judgeClaudeMessage(reasoning, index === lastAssistant)) {
      if (!has(verdict)) continue;
      const params = {
        index,
        block: at,
        role: 'assistant',
        path: `messages.${index}.content.${at}`,
        field: verdict === 'missing-signature' ? 'signature' : 'thinking',
      };
      const rule = verdict === 'thinking-field-required' ? 'provider-accepts' : 'signatures-verbatim';
      const what = dropped
        ? `${dropped} reasoning block(s) dropped after block ${at - 1}`
        : `${reasoning[ordinal]!.block.kind} block ${at}`;
      findings.push({
        rule,
        rejection: verdict,
        params,
        detail: `${what} of message ${index} (reasoning block #${ordinal}): ${verdict}`,
      });
    }
  });

  const budget = isPlainObject(body.thinking) ? body.thinking.budget_tokens : undefined;
  if (
    thinkingEnabled(body) &&
    typeof budget === 'number' &&
    typeof body.max_tokens === 'number' &&
    budget >= body.max_tokens &&
    has('max-tokens-not-above-budget')
  ) {
    findings.push({
      rule: 'provider-accepts',
      rejection: 'max-tokens-not-above-budget',
      params: { path: 'thinking.budget_tokens' },
      detail: `thinking.budget_tokens ${budget} is not below max_tokens ${body.max_tokens}`,
    });
  }
  messages.forEach((message, index) => {
    if (!isPlainObject(message) || message.role !== 'assistant') return;
    const kinds = blocksOf(message, index).map((b) => String(b.type));
    if (kinds.some((k) => REASONING.has(k)) && !REASONING.has(kinds[0]!) && has('thinking-not-first')) {
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'thinking-not-first',
        params: { index, block: 0, found: kinds[0]!, role: 'assistant', path: `messages.${index}.content.0` },
        detail: `assistant message ${index} holds thinking after a ${kinds[0]} block`,
      });
    }
  });
  // A request that ends in an assistant message (a prefill) is checked on its own terms.
  const last = messages.at(-1);
  if (isPlainObject(last) && last.role === 'assistant') {
    const index = messages.length - 1;
    const kinds = blocksOf(last).map((b) => String(b.type));
    const firstThinking = kinds.findIndex((k) => REASONING.has(k));
    if (!thinkingEnabled(body) && firstThinking >= 0 && has('thinking-when-disabled')) {
      findings.push({
        rule: 'provider-accepts',
        rejection: 'thinking-when-disabled',
        params: { index, block: firstThinking, role: 'assistant', path: `messages.${index}.content.${firstThinking}` },
        detail: `thinking is off and the final assistant message ${index} carries thinking`,
      });
    } else if (REASONING.has(kinds.at(-1) ?? '') && has('final-block-thinking')) {
      findings.push({
        rule: 'provider-accepts',
        rejection: 'final-block-thinking',
        params: { index, role: 'assistant', path: `messages.${index}` },
        detail: `the final assistant message ${index} ends with a thinking block`,
      });
    }
  }

  if (thinkingEnabled(body) && has('thinking-expected')) {
    const shape: LoopMessage[] = messages.map((m, index) => ({
      role: isPlainObject(m) ? String(m.role) : '',
      kinds: blocksOf(m, index).map((b) => String(b.type)),
    }));
    const opener = toolLoopOpener(shape);
    const first = opener === undefined ? undefined : shape[opener]!.kinds[0];
    if (opener !== undefined && !REASONING.has(first ?? '')) {
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'thinking-expected',
        params: {
          index: opener,
          block: 0,
          found: first ?? 'nothing',
          role: 'assistant',
          path: `messages.${opener}.content.0.type`,
        },
        detail: `assistant message ${opener} opens the current tool loop with ${first ?? 'no block'}, not thinking`,
      });
    }
  }
  return findings;
}
