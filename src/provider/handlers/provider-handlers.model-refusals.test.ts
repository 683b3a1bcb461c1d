import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { readFindingsHeader } from '../../shared/findings/findings-record.js';
import { SCENARIO_HEADER } from '../../shared/findings/finding.js';
import { FixtureStore } from '../fixtures/fixture-store.js';
import { providerHandlers } from './provider-handlers.js';

/**
 * The handlers' use of model and path refusals (spec models.refuses, endpoint.unserved), on a copy of a bundled chat
 * spec given made-up data, so the test holds whatever the committed specs list.
 */
const base = loadProviderSpecs().find((s) => s.id === 'groq')!;
const rejection = (message: string, status = 404) => ({
  status,
  body: { error: { message } },
  wording: 'verbatim' as const,
  sources: ['https://example.com/source'],
});
const spec: ProviderSpec = {
  ...base,
  endpoint: {
    ...base.endpoint,
    unserved: [{ path: '/v9/other', rejection: 'no-such-api', sources: ['https://x.test'] }],
  },
  rejections: {
    ...base.rejections,
    gone: rejection('model {model} is gone'),
    'gone-stream': rejection('model {model} does not stream'),
    'no-such-api': rejection('api not supported'),
    'disputed-gone': {
      ...rejection('maybe gone'),
      contested: { notes: 'a later report shows it served', sources: ['https://example.com/served'] },
    },
  },
  models: {
    ...base.models,
    refuses: [
      {
        match: '^old-model$',
        label: 'retired',
        rejection: 'gone',
        streamRejection: 'gone-stream',
        sources: ['https://x.test'],
      },
      { match: '^disputed$', label: 'retired?', rejection: 'disputed-gone', sources: ['https://x.test'] },
    ],
  },
};
const fixtures = new FixtureStore();
const handlers = providerHandlers(spec, fixtures);
const origin = new URL(spec.endpoint.baseUrl).origin;

async function post(url: string, body: unknown) {
  const response = await getResponse(
    handlers,
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SCENARIO_HEADER]: 'plain-two-turn-chat' },
      body: JSON.stringify(body),
    }),
  );
  expect(response, 'a handler answers').toBeDefined();
  return {
    status: response!.status,
    text: await response!.text(),
    findings: readFindingsHeader(response!.headers, 'test'),
  };
}

const url = spec.endpoint.baseUrl + spec.endpoint.path;
const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe('model and path refusals in the generated handlers', () => {
  it('refuse a listed model with its rejection, the model filled in, before anything else in the body', async () => {
    const answer = await post(url, chat('old-model', { not_a_member: true }));
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('model old-model is gone');
    expect(answer.findings[0]!.rejection).toBe('gone');
  });

  it('answer a streaming body with the stream rejection', async () => {
    const answer = await post(url, chat('old-model', { stream: true }));
    expect(answer.text).toContain('model old-model does not stream');
  });

  it('serve a model no entry names', async () => {
    const answer = await post(url, chat('brand-new-model'));
    expect(answer.status).toBeLessThan(400);
  });

  it('answer a contested refusal as the lenient side, with a warning', async () => {
    const answer = await post(url, chat('disputed'));
    expect(answer.status).toBeLessThan(400);
    expect(answer.findings).toMatchObject([{ rejection: 'disputed-gone', contested: true, lenient: true }]);
  });

  it('refuse every request on an unserved path of the host', async () => {
    const answer = await post(origin + '/v9/other', chat('brand-new-model'));
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('api not supported');
  });
});
