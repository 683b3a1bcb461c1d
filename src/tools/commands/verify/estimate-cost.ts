import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { costOf, type PriceEntry } from './price-table.js';

/**
 * Input tokens are estimated from the body's JSON length at 3 bytes a token: real tokenizers
 * average nearer 4 bytes for English and code, so the estimate leans high, which is the side a
 * spending cap must err on.
 */
export const BYTES_PER_TOKEN = 3;
/** An answer whose request carries no usable cap (a case that sends none, or a non-number) is priced this long. */
export const UNCAPPED_OUTPUT_TOKENS = 8192;

export interface Estimate {
  inputTokens: number;
  outputTokens: number;
  /** USD. */
  cost: number;
}

export function estimateRequest(body: unknown, maxTokens: number | undefined, price: PriceEntry): Estimate {
  const inputTokens = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / BYTES_PER_TOKEN);
  const outputTokens = maxTokens ?? UNCAPPED_OUTPUT_TOKENS;
  return { inputTokens, outputTokens, cost: costOf(price, inputTokens, outputTokens) };
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/**
 * The tokens an answer says it used, in each family's shape: chat completions
 * (`usage.prompt_tokens`/`completion_tokens`), Anthropic and Responses (`usage.input_tokens`/
 * `output_tokens`), Bedrock (`usage.inputTokens`/`outputTokens`), Gemini (`usageMetadata`, whose
 * thinking tokens are counted apart from the candidates'). Undefined when the answer says nothing.
 */
export function usageOf(body: unknown): { inputTokens: number; outputTokens: number } | undefined {
  if (!isPlainObject(body)) return undefined;
  const usage = body.usage;
  if (isPlainObject(usage)) {
    if ('prompt_tokens' in usage || 'completion_tokens' in usage)
      return { inputTokens: count(usage.prompt_tokens), outputTokens: count(usage.completion_tokens) };
    if ('input_tokens' in usage || 'output_tokens' in usage)
      return { inputTokens: count(usage.input_tokens), outputTokens: count(usage.output_tokens) };
    if ('inputTokens' in usage || 'outputTokens' in usage)
      return { inputTokens: count(usage.inputTokens), outputTokens: count(usage.outputTokens) };
  }
  const meta = body.usageMetadata;
  if (isPlainObject(meta))
    return {
      inputTokens: count(meta.promptTokenCount),
      outputTokens: count(meta.candidatesTokenCount) + count(meta.thoughtsTokenCount),
    };
  return undefined;
}
