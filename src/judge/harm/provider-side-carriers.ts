import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { catalogueModels } from '../../shared/provider-specs/model-catalogue.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable, RouteTarget } from '../../shared/route-table/route-table.js';
import type { JudgeFinding } from '../conformance/verdict.js';

/** What the harm judge says about the provider-side carriers a route handles for one target. */
export interface ProviderSideVerdict {
  findings: Array<Omit<JudgeFinding, 'provider' | 'route'>>;
  reasons: Array<{ item: string; text: string }>;
  profile: string[];
}

/**
 * The 2026 provider-side carriers (docs/decisions/0100, 0104), held against the provider spec:
 * - a provider that issues compaction items (its spec refuses an edited one: rejection `compaction-invalid`) wants each
 *   back verbatim; a route that does not list `compaction` among its serverCarriers loses it, and with it everything
 *   the item stood for;
 * - a provider that binds thinking to its prefix (spec `response.thinkingBinding`, models from its catalogue) refuses a
 *   block sent under a changed prefix; a route that does not list such a model in thinkingBinding sends it that block.
 */
export function assessProviderSideCarriers(
  table: RouteTable,
  spec: ProviderSpec,
  target: RouteTarget,
  policy: RoutePolicy,
  who: string,
): ProviderSideVerdict {
  const out: ProviderSideVerdict = { findings: [], reasons: [], profile: [] };
  const compaction = spec.rejections['compaction-invalid'];
  const listed = (policy.serverCarriers ?? []).includes('compaction');
  if (listed) out.profile.push('server carrier compaction');
  if (compaction && !listed)
    out.findings.push({
      behaviour: 'compaction-kept',
      status: 'fail',
      turns: 'every-request',
      source: compaction.sources[0] ?? spec.sources[0] ?? '',
      detail: `${who} issues compaction items it wants back verbatim (an edited one is refused: compaction-invalid), but route ${policy.routeId} does not list compaction among its serverCarriers: the engine drops the item and the context it stood for`,
    });
  else if (compaction)
    out.reasons.push({
      item: 'compaction',
      text: `route ${policy.routeId} carries compaction items back to ${spec.label}, which issues them`,
    });

  const binding = spec.response.thinkingBinding;
  if (!binding) return out;
  const refusal = spec.rejections['thinking-bound-to-different-conversation'];
  const enforced = new RegExp(binding.enforced);
  for (const model of catalogueModels(spec)
    .map((e) => e.id)
    .filter((id) => enforced.test(id))) {
    const bound = resolveRoute(table, { ...target, model }).bindsThinking === true;
    out.profile.push(`binds ${model}: ${bound}`);
    if (bound) {
      out.reasons.push({
        item: `binding ${model}`,
        text: `route ${policy.routeId} leaves out ${model}'s thinking under a changed prefix, as ${spec.label} binds it`,
      });
      continue;
    }
    out.findings.push({
      behaviour: 'binding-respected',
      status: 'fail',
      turns: 'assistant-turns',
      source: refusal?.sources[0] ?? binding.sources[0]!,
      detail: `${who} binds ${model}'s thinking to the prefix before it${refusal ? ` (${refusal.status} thinking-bound-to-different-conversation)` : ''}, but route ${policy.routeId} does not list ${model} in thinkingBinding: after a system prompt change the engine sends that thinking to a refusal`,
    });
  }
  return out;
}
