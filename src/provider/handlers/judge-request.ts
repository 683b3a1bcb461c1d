import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { PROVIDER_SIDE_FAMILIES } from './family-registry.js';
import type { Finding } from '../../shared/findings/finding.js';
import { judgeForbiddenFields } from '../rules/forbidden-fields.js';
import { judgeRequestSchema } from '../rules/request-schema-judge.js';
import { contestedMark } from '../rules/contested-mark.js';
import { readAsProvider } from '../rules/accepted-shapes.js';

/**
 * Everything the provider would say about this body, first answer first. `spec` is the rule set
 * for the request's model (specForModel). Contested findings go last: the mock answers with the
 * first finding, and an undisputed violation is the one to hear about.
 */
export function judgeRequest(spec: ProviderSpec, sent: unknown): Finding[] {
  // Shapes the provider is shown to accept are judged as what they mean (spec request.accepts).
  const body = readAsProvider(spec, sent);
  const schema = judgeRequestSchema(spec, body);
  // A provider that fails schema validation never gets as far as its semantic checks.
  if (schema.length > 0) return schema;
  const findings = [judgeForbiddenFields, ...(PROVIDER_SIDE_FAMILIES[spec.family]?.judges ?? [])]
    .flatMap((judge) => judge(spec, body))
    .map((f) => markContested(spec, f));
  return [...findings.filter((f) => !f.contested), ...findings.filter((f) => f.contested)];
}

/** A rejection the spec marks contested makes every finding answered with it contested, citing both sides. */
function markContested(spec: ProviderSpec, finding: Finding): Finding {
  const rejection = spec.rejections[finding.rejection];
  if (!rejection?.contested || finding.contested) return finding;
  return { ...finding, ...contestedMark(rejection.contested, rejection.sources) };
}
