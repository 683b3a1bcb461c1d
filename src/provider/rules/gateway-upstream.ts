import type { ProviderSpec, ReasoningDetailKind, Upstream } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { registeredProviderSpec } from '../../shared/provider-specs/spec-registry.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { contestedMark } from './contested-mark.js';
import { judgeClaudeMessage, type ClaudeReasoningBlock } from './claude-reasoning-blocks.js';
import { echoRuleFindings } from './message-echo-judge.js';
import { encryptedContentFinding } from '../families/openai-responses/request-rules.js';
import { atPointer } from './message-echo-judge.js';
import { verifyMockOpaque } from '../signing/mock-opaque.js';

/**
 * A finding a gateway passes on from its upstream: the rejection is the upstream spec's, wrapped in the gateway's
 * envelope.
 */
export interface UpstreamFinding extends Finding {
  via: { provider: string; providerName: string; gatewayRejection?: string };
}

export function isUpstreamFinding(finding: Finding): finding is UpstreamFinding {
  return isPlainObject((finding as Partial<UpstreamFinding>).via);
}

/** The upstream serving a gateway model id (`anthropic/claude-sonnet-4.5` -> Anthropic), if the spec names one. */
export function upstreamFor(spec: ProviderSpec, model: string): Upstream | undefined {
  return spec.upstreams?.find((u) => new RegExp(u.models).test(model));
}

/**
 * The upstream behind the gateway that serves this request and signs its answer (spec upstream `boundSignatures`): the
 * one the routing choice names, else the one named as the upstream itself; undefined where signatures are not bound.
 */
export function servingUpstream(
  upstream: Upstream | undefined,
  body: unknown,
): NonNullable<Upstream['boundSignatures']>['upstreams'][number] | undefined {
  const bound = upstream?.boundSignatures;
  if (!bound) return undefined;
  const chosen = isPlainObject(body) ? atPointer(body, bound.pointer) : undefined;
  const named = typeof chosen === 'string' ? bound.upstreams.find((u) => new RegExp(u.match).test(chosen)) : undefined;
  return named ?? bound.upstreams.find((u) => u.providerName === upstream.providerName) ?? bound.upstreams[0];
}

/**
 * Chat messages as the upstream numbers them: system/developer messages leave the list (Anthropic
 * `system`, Gemini `systemInstruction`) and consecutive tool/user messages merge into one user
 * turn. Returns upstream index by chat index.
 */
function upstreamIndexes(messages: readonly unknown[]): number[] {
  const out: number[] = [];
  let index = -1;
  let side: 'user' | 'assistant' | undefined;
  for (const m of messages) {
    const role = isPlainObject(m) ? m.role : undefined;
    if (role === 'system' || role === 'developer') {
      out.push(Math.max(index, 0));
      continue;
    }
    const next = role === 'assistant' ? 'assistant' : 'user';
    if (next !== side) index++;
    side = next;
    out.push(index);
  }
  return out;
}

const details = (message: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(message.reasoning_details) ? message.reasoning_details.filter(isPlainObject) : [];
/** Each object entry of reasoning_details with its index in the list as sent (what a finding's path names). */
const indexedDetails = (message: Record<string, unknown>): Array<[number, Record<string, unknown>]> =>
  Array.isArray(message.reasoning_details)
    ? message.reasoning_details.flatMap((d: unknown, i: number): Array<[number, Record<string, unknown>]> =>
        isPlainObject(d) ? [[i, d]] : [],
      )
    : [];
const isClaudeItem = (d: Record<string, unknown>) =>
  (d.format === undefined || d.format === 'anthropic-claude-v1') &&
  (d.type === 'reasoning.text' || d.type === 'reasoning.encrypted');
const claudeItems = (message: Record<string, unknown>) => details(message).filter(isClaudeItem);

/**
 * The Claude blocks a gateway sends up for one chat message, in stored order (they open the
 * upstream message, so a block's content index is its place among them), each with the index of
 * the reasoning_details item it came from. An unsigned text item of unnamed format is not taken
 * for Claude's own and stays behind; one marked anthropic-claude-v1 goes up with an empty
 * signature and Claude calls it invalid (OpenRouterTeam/ai-sdk-provider#423).
 */
function claudeBlocksSent(
  message: Record<string, unknown>,
): { item: number; block: ClaudeReasoningBlock; unsigned: boolean }[] {
  const out: { item: number; block: ClaudeReasoningBlock; unsigned: boolean }[] = [];
  for (const [item, d] of indexedDetails(message)) {
    if (!isClaudeItem(d)) continue;
    const unsigned = d.signature === undefined || d.signature === null;
    if (d.type === 'reasoning.text' && unsigned && d.format !== 'anthropic-claude-v1') continue;
    out.push({
      item,
      unsigned: d.type === 'reasoning.text' && unsigned,
      block:
        d.type === 'reasoning.text'
          ? {
              kind: 'thinking',
              thinking: typeof d.text === 'string' ? d.text : '',
              signature: unsigned ? '' : d.signature,
              hasThinkingKey: true,
              hasSignatureKey: true,
            }
          : { kind: 'redacted_thinking', data: d.data, hasThinkingKey: false, hasSignatureKey: false },
    });
  }
  return out;
}

function reasoningRequested(body: Record<string, unknown>): boolean {
  const r = body.reasoning;
  if (!isPlainObject(r)) return body.include_reasoning === true;
  if (r.enabled === false) return false;
  return r.enabled === true || r.effort !== undefined || r.max_tokens !== undefined;
}

/**
 * What a gateway's upstream checks, on the gateway's chat body. The gateway (OpenRouter and the
 * gateways that route through it or like it) maps reasoning_details onto the upstream's carrier
 * and passes the upstream's error back in its own envelope; so the rules are the upstream's, read
 * through that mapping:
 * - claude-signatures: each `anthropic-claude-v1` item replays as a thinking / redacted_thinking
 *   block, thinking first, in stored order; its signature must cover its text (a signature-only
 *   item fails: OpenRouterTeam/ai-sdk-provider#423).
 * - claude-thinking-first: with reasoning on, the current tool loop opens with a reasoning item.
 * - gemini-preserved-details: each tool-call message of the current turn brings the encrypted
 *   detail that carries Gemini's thought signature (OpenRouter answers with its own message).
 * - must-echo: the upstream's required echoes, satisfied by reasoning_content, reasoning or
 *   readable reasoning_details (OpenRouter documents reasoning_content as an alias of reasoning).
 * - openai-encrypted-reasoning: each `openai-responses-v1` encrypted item replays as a Responses
 *   reasoning item with that encrypted_content, which OpenAI verifies for the gateway's own
 *   organization (the account the gateway reaches OpenAI with): a blob fetched through another
 *   provider is another organization's (Kilo-Org/kilo#88).
 */
export function judgeGatewayUpstream(spec: ProviderSpec, body: unknown): Finding[] {
  if (!spec.upstreams || !isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const model = typeof body.model === 'string' ? body.model : spec.target.model;
  const upstream = upstreamFor(spec, model);
  const base = upstream && registeredProviderSpec(upstream.provider);
  if (!upstream || !base) return [];
  const rules = specForModel(base, model.replace(/^[^/]+\//, ''));
  const has = (id: string) => id in rules.rejections;
  const messages: unknown[] = body.messages;
  const indexes = upstreamIndexes(messages);
  const via = (rejection: string) => ({
    provider: upstream.provider,
    providerName: upstream.providerName,
    ...(upstream.ownRejections?.[rejection] ? { gatewayRejection: upstream.ownRejections[rejection] } : {}),
  });
  const findings: UpstreamFinding[] = [];
  const lastAssistant = messages.reduce<number>(
    (at, m, i) => (isPlainObject(m) && m.role === 'assistant' ? i : at),
    -1,
  );
  const lastUser = messages.reduce<number>((at, m, i) => (isPlainObject(m) && m.role === 'user' ? i : at), -1);

  // A gateway demands back only what it issues for this upstream (spec `answer`): no Claude item, no Claude opener.
  const issues = (kind: ReasoningDetailKind) => !upstream.answer || upstream.answer.details.includes(kind);
  for (const check of upstream.checks) {
    if (check === 'claude-thinking-first' && !issues('signed-text')) continue;
    if (check === 'gemini-preserved-details' && !issues('encrypted')) continue;
    if (check === 'claude-signatures') {
      messages.forEach((message, index) => {
        if (!isPlainObject(message) || message.role !== 'assistant') return;
        const at = indexes[index]!;
        const sent = claudeBlocksSent(message);
        // Judged as one message, as Claude does: a signature binds its block's place among the
        // message's reasoning blocks, so a sibling dropped after intact blocks is named where it stood.
        for (const { verdict, at: block, ordinal, dropped } of judgeClaudeMessage(
          sent.map((s, k) => ({ at: k, block: s.block })),
          index === lastAssistant,
        )) {
          if (!has(verdict)) continue;
          const item = sent[ordinal]?.item ?? (sent.at(-1)?.item ?? -1) + 1;
          // Whether the gateway refuses an unsigned text item or drops it silently, sources disagree (spec:
          // contested.claude-unsigned-text).
          const disputed =
            !dropped && sent[ordinal]?.unsigned ? upstream.contested?.['claude-unsigned-text'] : undefined;
          const what = dropped
            ? `${dropped} reasoning item(s) dropped after item ${item - 1}`
            : `reasoning_details item ${item}`;
          findings.push({
            rule: 'signatures-verbatim',
            rejection: verdict,
            params: { index: at, block, role: 'assistant', path: `messages.${index}.reasoning_details.${item}` },
            detail: `${what} of message ${index} (${upstream.providerName} message ${at}, content ${block}): ${verdict}`,
            via: via(verdict),
            ...(disputed ? contestedMark(disputed, upstream.sources) : {}),
          });
        }
      });
    } else if (check === 'claude-thinking-first') {
      const last = messages.at(-1);
      if (!has('thinking-expected') || !reasoningRequested(body) || !isPlainObject(last) || last.role !== 'tool')
        continue;
      const opener = messages.findIndex((m, i) => i > lastUser && isPlainObject(m) && m.role === 'assistant');
      const message = messages[opener];
      if (opener < 0 || !isPlainObject(message) || claudeItems(message).length > 0) continue;
      const found = typeof message.content === 'string' && message.content !== '' ? 'text' : 'tool_use';
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'thinking-expected',
        params: {
          index: indexes[opener]!,
          block: 0,
          found,
          role: 'assistant',
          path: `messages.${indexes[opener]}.content.0.type`,
        },
        detail: `assistant message ${opener} opens the current tool loop without a Claude reasoning item`,
        via: via('thinking-expected'),
      });
    } else if (check === 'gemini-preserved-details') {
      if (!has('missing-thought-signature')) continue;
      messages.forEach((message, index) => {
        if (
          index <= lastUser ||
          !isPlainObject(message) ||
          message.role !== 'assistant' ||
          !Array.isArray(message.tool_calls) ||
          message.tool_calls.length === 0
        )
          return;
        const encrypted = details(message).filter(
          (d) => d.type === 'reasoning.encrypted' && typeof d.data === 'string' && d.data !== '',
        );
        // A signature another upstream behind the gateway minted is refused by the one serving now (#491).
        const serving = servingUpstream(upstream, body);
        const foreign = serving
          ? upstream.boundSignatures!.upstreams.find(
              (u) =>
                u.signer !== serving.signer &&
                encrypted.some(
                  (d) =>
                    verifyMockOpaque(u.signer, 'thought', d.data) &&
                    !verifyMockOpaque(serving.signer, 'thought', d.data),
                ),
            )
          : undefined;
        if (foreign && has('corrupted-thought-signature'))
          findings.push({
            rule: 'signatures-verbatim',
            rejection: 'corrupted-thought-signature',
            params: { index: indexes[index]!, path: `messages.${index}.reasoning_details` },
            detail: `message ${index} carries a Gemini thought signature ${foreign.providerName} minted; ${serving!.providerName} serves this request and refuses it`,
            via: { provider: upstream.provider, providerName: serving!.providerName },
          });
        if (encrypted.length > 0) return;
        const call = message.tool_calls[0];
        const name =
          isPlainObject(call) && isPlainObject(call.function) && typeof call.function.name === 'string'
            ? call.function.name
            : '';
        findings.push({
          rule: 'signatures-verbatim',
          rejection: 'missing-thought-signature',
          params: {
            field: name,
            index: indexes[index]!,
            position: indexes[index]! + 1,
            path: `messages.${index}.reasoning_details`,
          },
          detail: `tool-call message ${index} of the current turn has no encrypted reasoning detail (Gemini's thought signature)`,
          via: via('missing-thought-signature'),
        });
      });
    } else if (check === 'openai-encrypted-reasoning') {
      messages.forEach((message, index) => {
        if (!isPlainObject(message) || message.role !== 'assistant') return;
        for (const [ordinal, d] of indexedDetails(message)) {
          if (d.type !== 'reasoning.encrypted' || d.format !== 'openai-responses-v1') continue;
          const id = typeof d.id === 'string' ? d.id : '';
          const finding = encryptedContentFinding(
            spec,
            id,
            d.data,
            { index, path: `messages.${index}.reasoning_details.${ordinal}` },
            rules.rejections,
          );
          if (finding) findings.push({ ...finding, via: via(finding.rejection) });
        }
      });
    } else if (check === 'must-echo') {
      for (const rule of rules.echo) {
        const aliased = { ...rule, aliases: [...(rule.aliases ?? []), 'reasoning', 'reasoning_details'] };
        for (const f of echoRuleFindings(aliased, body, messages)) findings.push({ ...f, via: via(f.rejection) });
      }
    }
  }
  // A check the sources disagree on for this upstream is reported as contested (a warning), still answered strictly.
  const marked = findings.map((f) => {
    const check = upstream.checks.find(
      (c) =>
        f.rejection ===
        (
          {
            'claude-thinking-first': 'thinking-expected',
            'gemini-preserved-details': 'missing-thought-signature',
          } as Record<string, string>
        )[c],
    );
    const contested = check && upstream.contested?.[check];
    return contested ? { ...f, ...contestedMark(contested, upstream.sources) } : f;
  });
  return [...marked.filter((f) => !f.contested), ...marked.filter((f) => f.contested)];
}

/** The rule set whose rejections a finding names: the upstream's (for this model) for a gateway-passed finding. */
export function rejectionSpec(spec: ProviderSpec, finding: Finding, model: string): ProviderSpec | undefined {
  if (!isUpstreamFinding(finding)) return spec;
  const upstream = registeredProviderSpec(finding.via.provider);
  return upstream && specForModel(upstream, model.replace(/^[^/]+\//, ''));
}
