import { createHash } from 'node:crypto';
import type { CompactEndpoint, ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { mockCompactionContent } from '../../signing/mock-compaction.js';

/**
 * POST /responses/compact (spec `endpoint.compact`): the conversation a request names (its `input`, after the stored
 * response `previous_response_id` names, when there is one) compacted into one encrypted `compaction` item. The item's
 * encrypted_content is signed for the issuing spec (mock-compaction.ts), so the next /responses request must carry it
 * back byte for byte (the compaction-invalid rule of request-rules.ts).
 */

/** The conversation a compact request names, as input items: the stored turn it continues, then its own input. */
export function compactInput(body: Readonly<Record<string, unknown>>, before: readonly unknown[] = []): unknown[] {
  const own = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  return [...before, ...(Array.isArray(own) ? own : [])];
}

const hex = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/**
 * A user message of the input as an output item (the answer lists "all user messages" before the compaction item),
 * with the `id` and `status` an item of the definition's ItemField list carries (Message requires both). The id is the
 * message's own when it sent one (the API takes `msg_` ids on input messages: openai/codex#25976, #33176), else one
 * derived from the compaction's seed, so the same request always lists the same ids and the list goes back verbatim.
 */
function asOutputMessage(item: Record<string, unknown>, seed: string, index: number): Record<string, unknown> {
  const content =
    typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : (item.content ?? []);
  const id = typeof item.id === 'string' && item.id.startsWith('msg') ? item.id : `msg_${hex(`${seed}/${index}`, 32)}`;
  return { id, type: 'message', status: 'completed', role: 'user', content };
}

const isUserMessage = (item: unknown): item is Record<string, unknown> =>
  isPlainObject(item) && item.role === 'user' && (item.type === undefined || item.type === 'message');

/** Four characters a token over what is compacted: the mock's rough count, as its count endpoints give. */
const tokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

/**
 * The `response.compaction` object (openai-node CompactedResponse: id, created_at, object, output, usage). The seed is
 * the conversation itself, so the same request always compacts to the same item.
 */
export function compactAnswer(
  spec: ProviderSpec,
  endpoint: CompactEndpoint,
  input: readonly unknown[],
  instructions: unknown,
  createdAt: number,
): Record<string, unknown> {
  const seed = hex(JSON.stringify([spec.id, instructions ?? null, input]), 32);
  const users = endpoint.output === 'user-messages-then-item' ? input.filter(isUserMessage) : [];
  const item = {
    id: `cmp_${seed}`,
    type: 'compaction',
    encrypted_content: mockCompactionContent(spec.id, `compact/${seed}`),
  };
  const inputTokens = tokens([instructions, input]);
  const outputTokens = tokens(item.encrypted_content);
  return {
    id: `resp_${hex(`${seed}/response`, 32)}`,
    created_at: createdAt,
    object: 'response.compaction',
    output: [...users.map((message, index) => asOutputMessage(message, seed, index)), item],
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
  };
}
