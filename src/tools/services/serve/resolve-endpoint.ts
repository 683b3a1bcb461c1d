import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { servesModel } from '../../../shared/provider-specs/spec-for-model.js';

/** One way to read a request path: this spec, at this provider URL. */
export interface EndpointCandidate {
  spec: ProviderSpec;
  url: string;
}

/**
 * The provider URLs a serve path `/<id>/<rest>` may mean, most literal first:
 *  - the spec's base URL + rest (`/deepseek/chat/completions`);
 *  - rest already holding the base URL's path, as SDKs given the bare origin write it
 *    (`/gemini/v1beta/models/m:generateContent`, `/openai/v1/chat/completions`);
 *  - rest with a leading `/v1` or `/v1beta` the spec's base does not have (`/deepseek/v1/chat/completions`);
 *  - rest without the `/v1` the spec's path starts with (`/anthropic/messages`, the AI SDK's default shape);
 *  - the spec's own model in place of another model id in the path (Gemini, Bedrock), for the named spec, and for a
 *    spec sharing its base URL only when that spec serves the model the path names: otherwise a request for one
 *    model would be judged by a sibling's rules for another (a Claude body refused by bedrock-claude, then accepted
 *    as Kimi's on the same regional base URL).
 * Specs sharing a base URL are tried after the named one, so `/openai/responses` reaches the
 * Responses mock while `/openai/chat/completions` stays with Chat Completions.
 */
export function endpointCandidates(
  spec: ProviderSpec,
  siblings: readonly ProviderSpec[],
  rest: string,
  search: string,
): EndpointCandidate[] {
  const out: EndpointCandidate[] = [];
  const seen = new Set<string>();
  for (const s of [spec, ...siblings.filter((x) => x !== spec && x.endpoint.baseUrl === spec.endpoint.baseUrl)]) {
    const base = s.endpoint.baseUrl.replace(/\/$/, '');
    const { origin, pathname } = new URL(base);
    const basePath = pathname.replace(/\/$/, '');
    const urls = [`${base}${rest}`];
    if (basePath && rest.startsWith(`${basePath}/`)) urls.push(`${origin}${rest}`);
    const version = /^\/(v1|v1beta|v1alpha)(\/.*)$/.exec(rest);
    if (version && !basePath.endsWith(`/${version[1]}`)) urls.push(`${base}${version[2]}`);
    // A base URL given with its version (the AI SDK's `https://api.anthropic.com/v1`) for an API whose path starts with
    // it.
    const specVersion = /^\/(v1|v1beta)\//.exec(s.endpoint.path);
    if (specVersion && !rest.startsWith(`/${specVersion[1]}/`)) urls.push(`${base}/${specVersion[1]}${rest}`);
    // Any model id: a path naming another model still reaches this provider's mock.
    const asked = /\/models?\/([^/:]+)(?::|\/converse)/.exec(rest)?.[1];
    const rewrites = s === spec || asked === undefined || servesModel(s, decodeURIComponent(asked));
    if (s.endpoint.path.includes('{model}') && rewrites) {
      const model = encodeURIComponent(s.target.model);
      for (const u of [...urls])
        urls.push(
          u
            .replace(/\/models\/[^/:]+:/, `/models/${model}:`)
            .replace(/\/model\/[^/]+\/(converse(?:-stream)?)$/, `/model/${model}/$1`),
        );
    }
    for (const url of urls) {
      const key = `${s.id} ${url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ spec: s, url: url + search });
    }
  }
  return out;
}
