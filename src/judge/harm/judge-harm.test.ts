import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RouteDefinition, RouteTable } from '../../shared/route-table/route-table.js';
import { assessTable } from './judge-harm.js';
import { judgeTables } from './judge-table-change.js';

// A made-up provider and table: the rules are judged on data written here, never on the bundled table.
function spec(over: Partial<ProviderSpec> & Record<string, unknown> = {}): ProviderSpec {
  return {
    id: 'acme',
    label: 'Acme',
    family: 'openai-chat',
    endpoint: { baseUrl: 'https://api.acme.test/v1', path: '/chat/completions' },
    target: { provider: 'acme', model: 'acme-1' },
    request: {
      schema: {
        type: 'object',
        properties: {
          messages: {
            type: 'array',
            items: { type: 'object', properties: { role: {}, content: {}, reasoning_content: { type: 'string' } } },
          },
        },
      },
    },
    echo: [
      {
        field: 'reasoning_content',
        turns: 'assistant-turns',
        level: 'recommended',
        source: 'https://acme.test/docs/thinking',
      },
    ],
    rejections: {},
    response: { carriers: ['reasoning_content'] },
    sources: ['https://acme.test/docs'],
    ...over,
  } as ProviderSpec;
}

function table(
  acme: Partial<RouteDefinition>,
  defaultFields: RouteDefinition['fields'] = ['reasoning_content'],
): RouteTable {
  return {
    version: 1,
    routes: [
      {
        id: 'acme',
        label: 'Acme',
        match: { providers: ['acme'] },
        family: 'openai-chat',
        tier: 'standard',
        fields: ['reasoning_content'],
        ...acme,
      },
      {
        id: 'default',
        label: 'default',
        match: { default: true },
        family: 'openai-chat',
        tier: 'standard',
        fields: defaultFields,
      },
    ],
  };
}

const findings = (t: RouteTable, s: ProviderSpec) => assessTable(t, [s]).flatMap((a) => a.findings);

describe('harm judge', () => {
  it('fails a route that drops a carrier the provider wants back (silent loss), naming provider, turns and source', () => {
    const [f] = findings(table({ fields: [] }), spec());
    expect(f).toMatchObject({
      status: 'fail',
      provider: 'acme',
      field: 'reasoning_content',
      turns: 'assistant-turns',
      source: 'https://acme.test/docs/thinking',
    });
    expect(f!.detail).toMatch(/degrades silently/);
  });

  it('passes the same route when it sends the wanted carrier', () => {
    expect(findings(table({}), spec())).toEqual([]);
  });

  it('fails a key the spec neither takes nor documents as ignored, and accepts it once an ignores entry has a source', () => {
    expect(findings(table({ fields: ['reasoning_content', 'reasoning'] }), spec())[0]).toMatchObject({
      status: 'fail',
      field: 'reasoning',
      behaviour: 'fields-sent',
    });
    const ignoring = spec({ ignores: [{ field: 'reasoning', source: 'https://acme.test/src' }] });
    expect(findings(table({ fields: ['reasoning_content', 'reasoning'] }), ignoring)).toEqual([]);
  });

  it('fails a rejected key on a named route, and only warns on the default route where the fallback recovers', () => {
    const closed = spec({
      target: { provider: 'other', model: 'x' },
      echo: [],
      request: {
        schema: {
          type: 'object',
          properties: {
            messages: {
              type: 'array',
              items: { type: 'object', additionalProperties: false, properties: { role: {}, content: {} } },
            },
          },
        },
        unknownFieldRejection: 'unknown',
      },
      rejections: {
        unknown: {
          status: 400,
          body: {},
          wording: 'verbatim',
          kind: 'unknown-field',
          sources: ['https://acme.test/errors'],
        },
      },
    });
    expect(findings(table({}), closed)).toEqual([
      expect.objectContaining({ status: 'warn', behaviour: 'fallback-recovers', source: 'https://acme.test/errors' }),
    ]);
    // Two unknown keys: the single retry drops only the one the error names, so the retry fails too.
    expect(findings(table({}, ['reasoning_content', 'reasoning']), closed).map((f) => f.status)).toEqual([
      'warn',
      'fail',
    ]);
    const named = spec({ ...closed, target: { provider: 'acme', model: 'x' } });
    expect(findings(table({}), named)).toEqual([
      expect.objectContaining({ status: 'fail', behaviour: 'strict-schema' }),
    ]);
  });

  it('fails a required echo off the must-echo tier (no pad for turns without reasoning), and passes it on the tier', () => {
    const required = spec({
      echo: [{ field: 'reasoning_content', turns: 'tool-call-turns', level: 'required', rejection: 'missing' }],
      rejections: {
        missing: {
          status: 400,
          body: {},
          wording: 'verbatim',
          kind: 'missing-reasoning',
          sources: ['https://acme.test/400'],
        },
      },
    });
    expect(findings(table({}), required)[0]).toMatchObject({
      status: 'fail',
      behaviour: 'must-echo',
      source: 'https://acme.test/400',
    });
    expect(findings(table({ tier: 'must-echo' }), required)).toEqual([]);
  });

  it('fails a flag widened past the models the provider documents it for, and a dropped flag the provider needs', () => {
    const withParam = spec({
      request: {
        schema: {
          type: 'object',
          properties: {
            keep: {},
            messages: { type: 'array', items: { type: 'object', properties: { reasoning_content: {} } } },
          },
        },
      },
      parameters: { keep: { models: ['acme-1'], wanted: true, source: 'https://acme.test/keep' } },
    });
    expect(findings(table({ flags: [{ when: { models: ['acme-1'] }, set: { keep: true } }] }), withParam)).toEqual([]);
    expect(findings(table({ flags: [{ set: { keep: true } }] }), withParam)[0]!.detail).toMatch(
      /every model of the route.*documents it only for acme-1/,
    );
    expect(findings(table({}), withParam)[0]!.detail).toMatch(/keeps replayed reasoning only with keep=true/);
  });

  it('reports a contested echo rule (sources disagree) as a warning, not a failure', () => {
    const contested = spec({
      echo: [
        {
          field: 'reasoning_content',
          turns: 'assistant-turns',
          level: 'recommended',
          source: 'https://acme.test/docs/thinking',
          contested: { notes: 'one report says it is ignored', sources: ['https://acme.test/other'] },
        } as never,
      ],
    });
    const [f] = findings(table({ fields: [] }), contested);
    expect(f).toMatchObject({ status: 'warn', field: 'reasoning_content' });
    expect(f!.detail).toContain('contested: https://acme.test/other');
  });

  it('judges each reachedAs target through the route it resolves to', () => {
    const reached = spec({ reachedAs: [{ provider: 'someone-else', source: 'https://acme.test/sdk' }] });
    const t = table({});
    t.routes[1]!.fields = [];
    const found = findings(t, reached);
    expect(found).toEqual([expect.objectContaining({ status: 'fail', route: 'default', field: 'reasoning_content' })]);
  });

  it('calls a change unexplained when a provider gets a key the spec says nothing about and nothing is found', () => {
    // The spec takes `reasoning` but neither wants it nor forbids it: adding it is explained
    // ("takes it"); removing a route's only carrier from a provider that wants none is explained too.
    const takes = spec({
      echo: [],
      request: {
        schema: {
          type: 'object',
          properties: {
            messages: {
              type: 'array',
              items: { type: 'object', properties: { reasoning_content: {}, reasoning: {} } },
            },
          },
        },
      },
    });
    expect(judgeTables(table({}), table({ fields: ['reasoning_content', 'reasoning'] }), [takes]).verdict).toBe(
      'harmless',
    );
    expect(judgeTables(table({}), table({ fields: [] }), [spec()]).verdict).toBe('harmful');
  });
});
