import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RouteDefinition, RouteTable } from '../../shared/route-table/route-table.js';
import { assessTable } from './judge-harm.js';
import { judgeTables } from './judge-table-change.js';

/**
 * The harm judge on the parameters a wire asks every model for its reasoning with (the Responses
 * wire's include of encrypted reasoning), against a made-up provider whose per-model variant
 * refuses it, and a made-up table: nothing here reads the bundled table or specs.
 */
const refusal = 'no-encrypted';
const acme = {
  id: 'acme-responses',
  label: 'Acme Responses',
  family: 'openai-responses',
  endpoint: { baseUrl: 'https://api.acme.test/v1', path: '/responses' },
  target: { provider: 'acme', model: 'acme-thinker' },
  request: { schema: { type: 'object' } },
  echo: [
    {
      field: 'reasoning',
      turns: 'tool-call-turns',
      level: 'required',
      rejection: 'fc-without-reasoning',
      source: 'https://acme.test/docs/reasoning',
    },
  ],
  rejections: {
    'fc-without-reasoning': {
      status: 400,
      body: { error: { message: 'x' } },
      sources: ['https://acme.test/docs/reasoning'],
    },
  },
  parameters: { include: { refusedBy: refusal, source: 'https://acme.test/issues/1' } },
  models: {
    variants: [
      {
        match: '^acme-chat',
        label: 'models that do not reason',
        examples: ['acme-chat-2'],
        rejections: {
          [refusal]: {
            status: 400,
            body: { error: { message: 'Encrypted content is not supported with this model.' } },
            sources: ['https://acme.test/issues/1'],
          },
        },
        sources: ['https://acme.test/issues/1'],
      },
    ],
  },
  response: { carriers: ['reasoning_details'] },
  sources: ['https://acme.test/docs'],
} as unknown as ProviderSpec;

function table(row: Partial<RouteDefinition> = {}): RouteTable {
  return {
    version: 1,
    routes: [
      {
        id: 'acme',
        label: 'Acme',
        match: { providers: ['acme'] },
        family: 'openai-responses',
        tier: 'standard',
        fields: ['reasoning_details'],
        ...row,
      },
      {
        id: 'default',
        label: 'default',
        match: { default: true },
        family: 'openai-chat',
        tier: 'standard',
        fields: [],
      },
    ],
  };
}
const listing = (models: string[]) => ({ withoutReasoning: { models, sources: ['https://acme.test/issues/1'] } });
const findings = (t: RouteTable) => assessTable(t, [acme]).flatMap((a) => a.findings);

describe('harm judge: asking a model for its reasoning', () => {
  it('assesses a variant’s example model as a target of its own', () => {
    expect(assessTable(table(), [acme]).map((a) => a.target.model)).toEqual(['acme-thinker', 'acme-chat-2']);
  });

  it('fails a row that asks a model which refuses it, on every request, with the refusal and its source', () => {
    const [f, ...rest] = findings(table());
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      status: 'fail',
      behaviour: 'provider-accepts',
      turns: 'every-request',
      field: 'include',
      source: 'https://acme.test/issues/1',
    });
    expect(f!.detail).toContain('refuses include for model acme-chat-2 (400 no-encrypted');
  });

  it('passes once the row lists the model under withoutReasoning', () => {
    expect(findings(table(listing(['acme-chat'])))).toEqual([]);
  });

  it('fails a row that lists a model which reasons: it is never asked for reasoning, so it has none to replay', () => {
    const all = findings(table(listing(['acme'])));
    expect(all.map((f) => [f.status, f.behaviour, f.field])).toEqual([
      ['fail', 'fields-sent', 'include'],
      ['fail', 'fields-sent', 'reasoning'],
    ]);
    expect(all[0]!.detail).toMatch(/acme-thinker reasons .* silently lost between turns/);
  });

  it('reports each table change by what it does to the two models', () => {
    const listed = table(listing(['acme-chat']));
    expect(judgeTables(listed, table(), [acme]).verdict).toBe('harmful');
    expect(judgeTables(table(), listed, [acme])).toMatchObject({ verdict: 'harmless' });
    expect(judgeTables(table(), listed, [acme]).reasons.join('\n')).toMatch(
      /harmless: asks acme-chat-2 for no reasoning \(include left out: route acme lists it under withoutReasoning\), and Acme Responses refuses it for this model; asks acme-chat-2 for no reasoning \(reasoning left out/,
    );
  });
});
