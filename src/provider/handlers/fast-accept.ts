import { endpointPattern, specPaths } from './provider-routes.js';
import { judgeRequest } from './judge-request.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { servesModel, specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

const compiled = new WeakMap<ProviderSpec, Array<{ pattern: RegExp; stream: boolean }>>();

/** Which endpoint a URL is, per spec: `null` for none. Serve's candidate URLs repeat, so each is matched once. */
type UrlMatch = { stream: boolean; modelInUrl: string | undefined } | null;
const matched = new WeakMap<ProviderSpec, Map<string, UrlMatch>>();

/**
 * The accept path of a provider mock without msw's request machinery: the same endpoint patterns,
 * the same model-to-rule-set choice and the same judge the mock's route runs
 * (src/provider/handlers/provider-routes.ts). It answers only "this request is accepted, streamed
 * or not"; anything else (a finding, a model this spec does not serve, no matching path) returns
 * undefined and the request takes the msw path, which words the rejection. In follow mode that is
 * the hot path of a `run`.
 */
export function acceptsWithoutFindings(
  spec: ProviderSpec,
  url: string,
  body: unknown,
): { stream: boolean; model: string } | undefined {
  if (!isPlainObject(body)) return undefined;
  let byUrl = matched.get(spec);
  if (!byUrl) matched.set(spec, (byUrl = new Map()));
  let match = byUrl.get(url);
  if (match === undefined) {
    match = matchUrl(spec, url);
    if (byUrl.size < 4096) byUrl.set(url, match);
  }
  if (!match) return undefined;
  const model = modelOf(match.modelInUrl, body, spec.target.model);
  if (!servesModel(spec, model)) return undefined;
  if (judgeRequest(specForModel(spec, model), body).length > 0) return undefined;
  return { stream: match.stream || body.stream === true, model };
}

function matchUrl(spec: ProviderSpec, url: string): UrlMatch {
  let patterns = compiled.get(spec);
  if (!patterns)
    compiled.set(
      spec,
      (patterns = specPaths(spec).map(({ baseUrl, path, stream }) => ({
        pattern: endpointPattern(baseUrl, path),
        stream,
      }))),
    );
  const bare = url.replace(/\?.*$/, '');
  for (const { pattern, stream } of patterns) {
    const found = pattern.exec(bare);
    if (found) return { stream, modelInUrl: found[1] };
  }
  return null;
}

function modelOf(fromUrl: string | undefined, body: Record<string, unknown>, fallback: string): string {
  if (fromUrl !== undefined) {
    try {
      return decodeURIComponent(fromUrl);
    } catch {
      return fromUrl;
    }
  }
  return typeof body.model === 'string' ? body.model : fallback;
}
