import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { Finding } from '../../../shared/findings/finding.js';
import { judgeClaudeMessage, type PlacedClaudeBlock } from '../../rules/claude-reasoning-blocks.js';
import { toolLoopOpener, type LoopMessage } from '../../rules/claude-tool-loop.js';

function blocksOf(message: unknown): Record<string, unknown>[] {
  return isPlainObject(message) && Array.isArray(message.content) ? message.content.filter(isPlainObject) : [];
}

/** A Converse block's kind in Anthropic's words, which is how Claude-on-Bedrock errors name them. */
function kindOf(block: Record<string, unknown>): string {
  if (isPlainObject(block.reasoningContent))
    return isPlainObject(block.reasoningContent.reasoningText) ? 'thinking' : 'redacted_thinking';
  if (block.toolUse !== undefined) return 'tool_use';
  if (block.toolResult !== undefined) return 'tool_result';
  if (block.text !== undefined) return 'text';
  return Object.keys(block)[0] ?? 'nothing';
}

/** Reports that an empty text block inside an assistant message with reasoning replays fine. */
const BLANK_BESIDE_REASONING = ['https://github.com/vercel/ai/pull/14070', 'https://github.com/vercel/ai/pull/14175'];

function thinkingEnabled(body: Record<string, unknown>): boolean {
  const extra = isPlainObject(body.additionalModelRequestFields) ? body.additionalModelRequestFields : {};
  return isPlainObject(extra.thinking) && (extra.thinking.type === 'enabled' || extra.thinking.type === 'adaptive');
}

/**
 * What Bedrock Converse checks about replayed reasoning, model by model (and, for every model,
 * that no message is left with an empty content list: `empty-content`). The spec says which
 * model it targets by the rejections it defines, and each rule runs only when its rejection is
 * defined: Claude (`missing-signature`, `invalid-signature`, `blocks-modified`, `thinking-expected`),
 * models that refuse signatures (`signature-not-supported`, gpt-oss and Nova), and models that refuse
 * any replayed reasoning (`reasoning-not-accepted`, DeepSeek R1; judged before the last user
 * message only, matching the seed's split point [INF: R1 on Bedrock has no tool use to test inside]).
 */
export function judgeBedrockConverse(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const has = (id: string) => id in spec.rejections;
  const messages = body.messages;
  const shape: LoopMessage[] = messages.map((m) => ({
    role: isPlainObject(m) ? String(m.role) : '',
    kinds: blocksOf(m).map(kindOf),
  }));
  const lastUser = shape.reduce(
    (at, m, i) => (m.role === 'user' && m.kinds.some((k) => k !== 'tool_result') ? i : at),
    -1,
  );
  const lastAssistant = shape.reduce((at, m, i) => (m.role === 'assistant' ? i : at), -1);
  const findings: Finding[] = [];

  // Converse's own checks, before any model rule: a message whose content list is empty (an answer
  // that held only reasoning, replayed with its reasoning stripped, comes out this way), and a text
  // block that is empty or only whitespace ('\n\n' before a toolUse, vercel/ai#6255).
  messages.forEach((message, index) => {
    if (
      isPlainObject(message) &&
      Array.isArray(message.content) &&
      message.content.length === 0 &&
      has('empty-content')
    ) {
      findings.push({
        rule: 'provider-accepts',
        rejection: 'empty-content',
        params: { index, path: `messages.${index}.content` },
        detail: `message ${index} has no content block`,
      });
    }
    const blocks = blocksOf(message);
    // The dispute is about Claude's own answers (the spec defines Claude's blocks-modified rule).
    const claudeWithReasoning = has('blocks-modified') && blocks.some((b) => b.reasoningContent !== undefined);
    blocks.forEach((block, at) => {
      if (typeof block.text !== 'string' || block.text.trim() !== '' || !has('blank-text')) return;
      const finding: Finding = {
        rule: 'provider-accepts',
        rejection: 'blank-text',
        params: { index, block: at, path: `messages.${index}.content.${at}.text` },
        detail: `message ${index} block ${at} is blank text`,
      };
      // Claude on Bedrock itself answers an empty text block between reasoning blocks, and keeping it
      // is reported to replay fine (vercel/ai#14070, #14175): disputed inside a message with reasoning.
      findings.push(
        claudeWithReasoning
          ? {
              ...finding,
              contested: true,
              sources: [...(spec.rejections['blank-text']?.sources ?? []), ...BLANK_BESIDE_REASONING],
            }
          : finding,
      );
    });
  });

  messages.forEach((message, index) => {
    if (!isPlainObject(message) || message.role !== 'assistant') return;
    const claude: PlacedClaudeBlock[] = [];
    blocksOf(message).forEach((block, at) => {
      if (!isPlainObject(block.reasoningContent)) return;
      const rc = block.reasoningContent;
      const params = { index, block: at, role: 'assistant', path: `messages.${index}.content.${at}.reasoningContent` };
      const push = (rule: string, rejection: string, detail: string) =>
        findings.push({ rule, rejection, params, detail });
      if (has('reasoning-not-accepted') && index < lastUser) {
        push(
          'fields-sent',
          'reasoning-not-accepted',
          `assistant message ${index} (before the last user message) carries reasoningContent, which ${spec.target.model} refuses`,
        );
        return;
      }
      if (isPlainObject(rc.reasoningText) && 'signature' in rc.reasoningText && has('signature-not-supported')) {
        push(
          'fields-sent',
          'signature-not-supported',
          `assistant message ${index} block ${at} carries reasoningText.signature, which ${spec.target.model} does not take`,
        );
        return;
      }
      if (isPlainObject(rc.reasoningText)) {
        // Bedrock fails an empty signature in schema validation, as it fails an absent one (oh-my-pi#10486).
        const signature = rc.reasoningText.signature === '' ? undefined : rc.reasoningText.signature;
        claude.push({
          at,
          block: {
            kind: 'thinking',
            thinking: rc.reasoningText.text,
            signature,
            hasThinkingKey: true,
            hasSignatureKey: typeof signature === 'string',
          },
        });
      } else if (rc.redactedContent !== undefined) {
        claude.push({
          at,
          block: { kind: 'redacted_thinking', data: rc.redactedContent, hasThinkingKey: false, hasSignatureKey: false },
        });
      }
    });
    // Claude's own rules on the blocks Converse maps to thinking / redacted_thinking, read as the Messages API reads
    // them.
    for (const { verdict, at, ordinal, dropped } of judgeClaudeMessage(claude, index === lastAssistant)) {
      if (verdict === 'thinking-field-required' || !has(verdict)) continue;
      const what = dropped ? `${dropped} reasoning block(s) dropped after block ${at - 1}` : `block ${at}`;
      findings.push({
        rule: 'signatures-verbatim',
        rejection: verdict,
        params: { index, block: at, role: 'assistant', path: `messages.${index}.content.${at}.reasoningContent` },
        detail: `assistant message ${index} ${what} (reasoning block #${ordinal}): ${verdict}`,
      });
    }
  });

  if (thinkingEnabled(body) && has('thinking-expected')) {
    const opener = toolLoopOpener(shape);
    const first = opener === undefined ? undefined : shape[opener]!.kinds[0];
    if (opener !== undefined && first !== 'thinking' && first !== 'redacted_thinking') {
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'thinking-expected',
        params: {
          index: opener,
          block: 0,
          found: first ?? 'nothing',
          role: 'assistant',
          path: `messages.${opener}.content.0`,
        },
        detail: `assistant message ${opener} opens the current tool loop with ${first ?? 'no block'}, not reasoningContent`,
      });
    }
  }
  return findings;
}
