import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { servesModel } from '../../../shared/provider-specs/spec-for-model.js';
import { endpointCandidates } from './resolve-endpoint.js';

/** Which mocks a serve path may reach: the named one, then the specs sharing its base URL, for the model asked. */
const specs = loadProviderSpecs();
const byId = (id: string) => specs.find((s) => s.id === id)!;
const modelIn = (url: string) => decodeURIComponent(/\/model\/([^/]+)\/converse/.exec(url)![1]!);

describe('endpointCandidates', () => {
  const claude = 'us.anthropic.claude-sonnet-4-5-20250929-v1%3A0';

  it("a sibling on the same base URL is never handed another model's path under its own model", () => {
    const named = byId('bedrock-claude');
    const siblings = specs.filter((s) => s !== named && s.endpoint.baseUrl === named.endpoint.baseUrl);
    expect(siblings.length, 'a Bedrock spec shares bedrock-claude’s regional base URL').toBeGreaterThan(0);
    const candidates = endpointCandidates(named, specs, `/model/${claude}/converse`, '');
    // No sibling serves Claude: each is reached, if at all, only at the model the path names.
    for (const c of candidates.filter((c) => c.spec !== named)) {
      expect(servesModel(c.spec, decodeURIComponent(claude)), c.spec.id).toBe(false);
      expect(modelIn(c.url), c.url).toBe(decodeURIComponent(claude));
    }
  });

  it('the named spec still reaches its mock for a model id it does not list (tomorrow’s model)', () => {
    const named = byId('bedrock-claude');
    const urls = endpointCandidates(named, specs, '/model/us.anthropic.claude-next-v1%3A0/converse', '')
      .filter((c) => c.spec === named)
      .map((c) => modelIn(c.url));
    expect(urls).toContain(named.target.model);
  });

  it('a sibling that serves the model asked gets the path under its own model, as the named spec does', () => {
    const named = byId('bedrock-claude');
    const kimi = specs.find((s) => s !== named && s.endpoint.baseUrl === named.endpoint.baseUrl && /kimi/.test(s.id));
    if (!kimi) return expect.fail('a Kimi spec on bedrock-claude’s base URL is what this test is about');
    const candidates = endpointCandidates(named, specs, '/model/moonshot.kimi-k2-thinking-v2/converse', '');
    expect(candidates.filter((c) => c.spec === kimi).map((c) => modelIn(c.url))).toContain(kimi.target.model);
  });
});
