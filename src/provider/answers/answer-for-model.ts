import { catalogueEntry } from '../../shared/provider-specs/model-catalogue.js';
import type { CatalogueEntry, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

type Body = Readonly<Record<string, unknown>>;

const at = (value: unknown, ...keys: string[]): unknown => {
  let v = value;
  for (const key of keys) v = isPlainObject(v) ? v[key] : undefined;
  return v;
};

/** Anthropic's thinking switch, on the Messages body or inside Bedrock's additionalModelRequestFields. */
function claudeThinking(thinking: unknown): boolean | undefined {
  const type = at(thinking, 'type');
  if (type === 'disabled') return false;
  if (type === 'enabled' || type === 'adaptive') return true;
  return undefined;
}

/**
 * Whether the request itself turns reasoning on or off, in its family's own words; undefined when it says nothing,
 * so the model's default decides. Only the switches the providers document as such: Anthropic `thinking.type`
 * (extended-thinking docs), chat `reasoning_effort: "none"` (OpenAI), `thinking.type` (DeepSeek, Kimi, GLM),
 * `enable_thinking` (DashScope), OpenRouter's `reasoning.enabled` / `reasoning.effort`, Responses `reasoning.effort`,
 * Gemini `thinkingConfig.thinkingBudget: 0` (thinking docs).
 */
export function requestAsksReasoning(family: FamilyId, body: Body | undefined): boolean | undefined {
  if (body === undefined) return undefined;
  switch (family) {
    case 'anthropic-messages':
      return claudeThinking(body.thinking);
    case 'bedrock-converse':
      return claudeThinking(at(body, 'additionalModelRequestFields', 'thinking'));
    case 'gemini': {
      const config = at(body, 'generationConfig', 'thinkingConfig') ?? at(body, 'generation_config', 'thinking_config');
      const budget = at(config, 'thinkingBudget') ?? at(config, 'thinking_budget');
      if (budget === 0) return false;
      if (typeof budget === 'number' || at(config, 'thinkingLevel') !== undefined) return true;
      return undefined;
    }
    case 'openai-responses': {
      const effort = at(body, 'reasoning', 'effort');
      if (effort === 'none') return false;
      return typeof effort === 'string' ? true : undefined;
    }
    default: {
      if (body.reasoning_effort === 'none') return false;
      if (body.enable_thinking === false) return false;
      if (body.enable_thinking === true) return true;
      const thinking = claudeThinking(body.thinking);
      if (thinking !== undefined) return thinking;
      const reasoning = body.reasoning;
      if (at(reasoning, 'enabled') === false || at(reasoning, 'effort') === 'none') return false;
      if (at(reasoning, 'enabled') === true) return true;
      return typeof body.reasoning_effort === 'string' ? true : undefined;
    }
  }
}

/**
 * Whether this model's answer to this request reasons: never for a model that does not, always for one that cannot
 * be asked not to, and for an optional one what the request says, else the model's documented default. A model the
 * catalogue does not name answers as the spec's target does (with reasoning), so tomorrow's model keeps working.
 */
export function answerReasons(entry: CatalogueEntry | undefined, asked: boolean | undefined): boolean {
  if (entry === undefined) return true;
  if (entry.reasoning === 'never') return false;
  if (entry.reasoning === 'always') return true;
  return asked ?? entry.reasoningByDefault ?? true;
}

const narrowed = new WeakMap<ProviderSpec, Map<CatalogueEntry, ProviderSpec>>();

/** The spec with its answer carriers narrowed to the ones this model's answers hold. */
function specWithCarriers(spec: ProviderSpec, entry: CatalogueEntry): ProviderSpec {
  const same =
    entry.carriers.length === spec.response.carriers.length &&
    entry.carriers.every((c) => spec.response.carriers.includes(c));
  if (same) return spec;
  let bySpec = narrowed.get(spec);
  if (!bySpec) narrowed.set(spec, (bySpec = new Map()));
  let out = bySpec.get(entry);
  if (!out) bySpec.set(entry, (out = { ...spec, response: { ...spec.response, carriers: [...entry.carriers] } }));
  return out;
}

/**
 * The catalogue's word on one answer: the scripted answer without its reasoning when this model does not reason for
 * this request, and the spec narrowed to the carriers this model's answers hold (Grok 4 reasons without returning
 * it on chat completions). The renderers are unchanged: they render what they are handed.
 */
export function answerForModel(
  spec: ProviderSpec,
  model: string | undefined,
  answer: ScriptedAnswer,
  request?: Body,
): { spec: ProviderSpec; answer: ScriptedAnswer; reasons: boolean } {
  const entry = catalogueEntry(spec, model);
  const reasons = answerReasons(entry, requestAsksReasoning(spec.family, request));
  if (!reasons) {
    const { reasoning: _reasoning, redacted: _redacted, ...plain } = answer;
    return { spec, answer: plain, reasons };
  }
  const thoughtsHidden = spec.family === 'gemini' && request !== undefined && !geminiIncludesThoughts(request);
  // Gemini returns thought summaries only when thinkingConfig.includeThoughts is true (default false, thinking
  // docs); the thought signature comes back either way. The renderer's redacted answer is exactly that shape.
  const shaped =
    thoughtsHidden && !answer.redacted && answer.reasoning !== undefined ? { ...answer, redacted: true } : answer;
  return { spec: entry ? specWithCarriers(spec, entry) : spec, answer: shaped, reasons };
}

/** Whether a Gemini request asks for thought summaries (thinkingConfig.includeThoughts, default false). */
export function geminiIncludesThoughts(request: Body): boolean {
  const config =
    at(request, 'generationConfig', 'thinkingConfig') ?? at(request, 'generation_config', 'thinking_config');
  return (at(config, 'includeThoughts') ?? at(config, 'include_thoughts')) === true;
}
