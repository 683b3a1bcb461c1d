import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { registeredProviderSpec } from '../../shared/provider-specs/spec-registry.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { upstreamFor, type UpstreamFinding } from './gateway-upstream.js';
import { echoRuleFindings } from './message-echo-judge.js';

/**
 * The readable text of a Responses reasoning item: its `reasoning_text` content parts (what a chat upstream calls
 * reasoning_content).
 */
function reasoningText(item: Record<string, unknown>): string | undefined {
  if (!Array.isArray(item.content)) return undefined;
  const parts = item.content.filter(
    (p): p is Record<string, unknown> => isPlainObject(p) && p.type === 'reasoning_text' && typeof p.text === 'string',
  );
  return parts.length === 0 ? undefined : parts.map((p) => String(p.text)).join('');
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (isPlainObject(p) && typeof p.text === 'string' ? p.text : '')).join('')
      : '';

/**
 * Responses input items read as the chat messages a gateway hands a chat-completions upstream:
 * consecutive assistant-side items (reasoning, an assistant message, function calls) form one
 * assistant message, whose reasoning_content is the reasoning items' `reasoning_text`; a
 * function_call_output is a tool message. Returns the messages and, per message, the input index
 * it starts at (the index the gateway's answer can name).
 */
export function responsesInputAsChat(input: unknown): { messages: Record<string, unknown>[]; inputIndex: number[] } {
  const items = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
  const messages: Record<string, unknown>[] = [];
  const inputIndex: number[] = [];
  let open: Record<string, unknown> | undefined;
  const assistant = (at: number) => {
    if (!open) {
      open = { role: 'assistant', content: null };
      messages.push(open);
      inputIndex.push(at);
    }
    return open;
  };
  items.forEach((item: unknown, at: number) => {
    if (!isPlainObject(item)) return;
    if (item.type === 'reasoning') {
      const text = reasoningText(item);
      const message = assistant(at);
      if (text !== undefined)
        message.reasoning_content = `${typeof message.reasoning_content === 'string' ? message.reasoning_content : ''}${text}`;
    } else if (item.type === 'function_call') {
      const message = assistant(at);
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : (message.tool_calls = []);
      calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
    } else if ((item.type === undefined || item.type === 'message') && item.role === 'assistant') {
      assistant(at).content = textOf(item.content);
    } else {
      open = undefined;
      if (item.type === 'function_call_output')
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: textOf(item.output) });
      else if (typeof item.role === 'string') messages.push({ role: item.role, content: textOf(item.content) });
      else return;
      inputIndex.push(at);
    }
  });
  return { messages, inputIndex };
}

/**
 * A chat gateway's Responses path (spec endpoint.wireAliases, Nous Portal's /v1/responses): the
 * gateway turns the Responses body into its upstream's chat request, so the upstream's must-echo
 * rule holds on the reasoning items (`reasoning_text` content) before each tool call. The gateway
 * words such a refusal in Responses terms (upstream.responsesRejections: "The `reasoning_text` in
 * the thinking mode must be passed back to the API.", OpenMinis/OpenMinis#171); a rejection it has
 * no Responses wording for comes back in its usual envelope. Other upstream checks (Claude
 * signatures, Gemini details) are not modelled on this path: no source shows how it carries them.
 */
export function judgeGatewayResponses(spec: ProviderSpec, body: unknown): Finding[] {
  const invalid = spec.request.invalidRejection;
  const malformed = (path: string): Finding[] =>
    invalid
      ? [
          {
            rule: 'provider-accepts',
            rejection: invalid,
            params: { path, field: path },
            detail: `the Responses body fails at '${path}'`,
          },
        ]
      : [];
  if (!isPlainObject(body)) return malformed('');
  if (typeof body.model !== 'string') return malformed('model');
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) return malformed('input');
  const upstream = upstreamFor(spec, body.model);
  const base = upstream && registeredProviderSpec(upstream.provider);
  if (!upstream || !base || !upstream.checks.includes('must-echo')) return [];
  const rules = specForModel(base, body.model.replace(/^[^/]+\//, ''));
  const { messages, inputIndex } = responsesInputAsChat(body.input);
  const findings: UpstreamFinding[] = rules.echo.flatMap((rule) =>
    echoRuleFindings(rule, body, messages, (i) => inputIndex[i]!).map((f) => {
      const own = upstream.responsesRejections?.[f.rejection] ?? upstream.ownRejections?.[f.rejection];
      return {
        ...f,
        params: { ...f.params, path: `input.${String(f.params.index)}`, provider_name: upstream.providerName },
        detail: `${f.detail ?? f.rejection} (Responses input item ${String(f.params.index)})`,
        via: {
          provider: upstream.provider,
          providerName: upstream.providerName,
          ...(own ? { gatewayRejection: own } : {}),
        },
      };
    }),
  );
  return [...findings.filter((f) => !f.contested), ...findings.filter((f) => f.contested)];
}
