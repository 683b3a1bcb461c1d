import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { answerRenderers } from '../../answers/answer-renderers.js';
import { ANSWER_KINDS } from '../../answers/answer-kinds.js';

/**
 * A gateway's reasoning_details, streamed: a client's stream reader merges every delta of one `index` into one item
 * (third-party readers do, e.g. the Gemini-over-OpenRouter tests that give the encrypted item index 1). Two items
 * at one index would reach it as one, and a Gemini tool turn would lose its signature item. Merged that way, the
 * stream must give back exactly the items the JSON answer holds, for every upstream the gateway specs name.
 */
type Item = Record<string, unknown> & { index?: number };
const MERGED = ['text', 'summary', 'data', 'signature'] as const;

function mergeByIndex(deltas: Item[]): Item[] {
  const byIndex = new Map<number, Item>();
  for (const delta of deltas) {
    const at = delta.index ?? 0;
    const item = byIndex.get(at);
    if (!item) byIndex.set(at, { ...delta });
    else
      for (const key of MERGED)
        if (typeof delta[key] === 'string') item[key] = `${(item[key] as string | undefined) ?? ''}${delta[key]}`;
  }
  return [...byIndex.values()];
}

const gateways = loadProviderSpecs().filter((s) => s.family === 'openai-chat' && (s.upstreams?.length ?? 0) > 0);
const cases = gateways.flatMap((spec) =>
  spec.upstreams!.map((u) => {
    const prefix = u.models.replace(/^\^/, '');
    return { spec, model: `${prefix}${prefix.endsWith('/') ? '' : '-'}mock-model` };
  }),
);

describe('reasoning_details items keep their own index', () => {
  it('there are gateways with upstreams to check', () => {
    expect(cases.length).toBeGreaterThan(5);
  });

  it.each(cases.map((c) => [`${c.spec.id} ${c.model}`, c] as const))('%s', (_name, { spec, model }) => {
    const render = answerRenderers[spec.family]!;
    const answer = ANSWER_KINDS['reasoning and a tool call']!;
    const ctx = { spec, call: 1, scenario: 'index', model, request: { model, stream: true } };
    const { body, stream } = render(answer, ctx);
    const message = (body as { choices: { message: { reasoning_details?: Item[] } }[] }).choices[0]!.message;
    const items = message.reasoning_details ?? [];
    expect(new Set(items.map((i) => i.index)).size, 'one index per item').toBe(items.length);
    const deltas = stream
      .filter((e) => e.data !== '[DONE]')
      .flatMap((e) => {
        const chunk = JSON.parse(e.data) as { choices?: { delta?: { reasoning_details?: Item[] } }[] };
        return chunk.choices?.[0]?.delta?.reasoning_details ?? [];
      });
    const merged = mergeByIndex(deltas);
    expect(merged.map((i) => [i.type, i.text ?? i.summary ?? i.data, i.signature])).toEqual(
      items.map((i) => [i.type, i.text ?? i.summary ?? i.data, i.signature]),
    );
  });
});
