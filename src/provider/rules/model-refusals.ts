import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../shared/findings/finding.js';
import { conditionHolds } from './forbidden-fields.js';
import { contestedMark } from './contested-mark.js';

/**
 * The provider's refusal of the model itself (spec `models.refuses`): a retired id, a form a report shows refused, or
 * a model none of whose endpoints takes what the body asks for. The first entry that fits answers; none fits an id
 * the spec does not name, so a model released after the data was written is served. `stream`: the request streams
 * (the streaming path, or `stream: true`), which picks the entry's `streamRejection` and is what `streamOnly` needs.
 * A refusal whose rejection is contested (a later source shows the model served) is marked so, and answered leniently.
 */
export function judgeModelRefusals(spec: ProviderSpec, model: string, body: unknown, stream: boolean): Finding[] {
  for (const entry of spec.models?.refuses ?? []) {
    if (!new RegExp(entry.match).test(model)) continue;
    if (entry.streamOnly && !stream) continue;
    if (!(entry.whenBody ?? []).every((c) => conditionHolds(body, c))) continue;
    const rejection = (stream ? entry.streamRejection : undefined) ?? entry.rejection;
    const contested = spec.rejections?.[rejection]?.contested;
    return [
      {
        rule: 'provider-accepts',
        rejection,
        params: { model },
        detail: `${entry.label}: ${model}${entry.since ? ` (since ${entry.since})` : ''}`,
        ...(contested ? contestedMark(contested, spec.rejections[rejection]!.sources) : {}),
      },
    ];
  }
  return [];
}
