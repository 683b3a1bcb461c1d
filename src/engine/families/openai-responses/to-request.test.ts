import { describe, expect, it } from 'vitest';
import type { History } from '../../../shared/history/history.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { specForModel } from '../../../shared/provider-specs/spec-for-model.js';
import { judgeRequest } from '../../../provider/handlers/judge-request.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { toOpenAIResponsesRequest } from './to-request.js';
import { lintRouteTable } from '../../../shared/route-table/lint-route-table.js';
import { lintProviderSpec } from '../../../shared/provider-specs/lint-provider-spec.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { familyDescriptor } from '../../../shared/wire/families.js';

/** A hand-made table: one Responses row that lists models which do not reason, and a default row. */
const table: RouteTable = {
  version: 1,
  routes: [
    {
      id: 'responses',
      label: 'Responses',
      match: { providers: ['openai-responses'] },
      family: 'openai-responses',
      tier: 'standard',
      fields: ['reasoning_details'],
      withoutReasoning: {
        models: ['gpt-4', 'gpt-5-chat'],
        sources: ['https://github.com/RooCodeInc/Roo-Code/issues/9225'],
      },
    },
    { id: 'default', label: 'Default', match: { default: true }, family: 'openai-chat', tier: 'standard', fields: [] },
  ],
};
const history: History = { messages: [{ role: 'user', content: 'Hello' }] };
const bodyFor = (model: string) =>
  toOpenAIResponsesRequest(
    history,
    resolveRoute(table, { provider: 'openai-responses', host: 'api.openai.com', model }),
  ).body;
const openai = loadProviderSpecs().find((s) => s.id === 'openai-responses')!;

describe('a Responses request asks for reasoning only from models the table does not list as non-reasoning', () => {
  it('asks a reasoning model for its encrypted reasoning and a summary, as before', () => {
    expect(bodyFor('gpt-5')).toEqual({
      model: 'gpt-5',
      input: [{ role: 'user', content: 'Hello' }],
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
    });
  });

  it('asks a listed model for neither, so its first request is not refused', () => {
    for (const model of ['gpt-4.1', 'gpt-5-chat-latest']) {
      const body = bodyFor(model);
      expect(body, model).toEqual({ model, input: [{ role: 'user', content: 'Hello' }], store: false });
      expect(judgeRequest(specForModel(openai, model), body), model).toEqual([]);
    }
  });

  it('is what OpenAI refuses when the table does not list the model (the provider side says so, not the engine)', () => {
    const unlisted = structuredClone(table);
    delete unlisted.routes[0]!.withoutReasoning;
    const body = toOpenAIResponsesRequest(
      history,
      resolveRoute(unlisted, { provider: 'openai-responses', host: 'api.openai.com', model: 'gpt-4.1' }),
    ).body;
    expect(judgeRequest(specForModel(openai, 'gpt-4.1'), body).map((f) => f.rejection)).toEqual([
      'encrypted-content-unsupported-model',
    ]);
  });

  it('leaves route flags to the table: a flag may still set reasoning for a listed model', () => {
    const flagged = structuredClone(table);
    flagged.routes[0]!.flags = [{ set: { reasoning: { effort: 'low' } } }];
    expect(
      toOpenAIResponsesRequest(
        history,
        resolveRoute(flagged, { provider: 'openai-responses', host: 'h', model: 'gpt-4.1' }),
      ).body,
    ).toMatchObject({ reasoning: { effort: 'low' } });
    expect(
      toOpenAIResponsesRequest(
        history,
        resolveRoute(flagged, { provider: 'openai-responses', host: 'h', model: 'gpt-4.1' }),
      ).body,
    ).not.toHaveProperty('include');
  });
});

describe('the data that says which models do not reason is checked where it is written', () => {
  it('the table linter refuses withoutReasoning on a family that asks no model for reasoning', () => {
    const chat = structuredClone(table);
    chat.routes[1]!.withoutReasoning = { models: ['x'], sources: ['https://example.test'] };
    expect(lintRouteTable(chat).map((p) => p.pointer)).toEqual(['/routes/1/withoutReasoning']);
    expect(lintRouteTable(table)).toEqual([]);
  });

  it('the spec linter refuses a variant example its match does not cover, and a refusedBy no rule set defines', () => {
    const broken = structuredClone(openai) as ProviderSpec & {
      parameters: Record<string, { refusedBy?: string; source: string }>;
    };
    broken.models!.variants![0]!.examples = ['o3'];
    broken.parameters = { include: { refusedBy: 'nowhere', source: 'https://example.test' } };
    expect(lintProviderSpec(broken).map((p) => p.pointer)).toEqual(
      expect.arrayContaining(['/models/variants/0/examples/0', '/parameters/include/refusedBy']),
    );
  });

  it('the family descriptor says what the engine asks with, so the judge reads what is sent', () => {
    const body = bodyFor('gpt-5');
    for (const [key, value] of Object.entries(familyDescriptor('openai-responses').reasoningRequest ?? {}))
      expect(body[key], key).toEqual(value);
  });
});
