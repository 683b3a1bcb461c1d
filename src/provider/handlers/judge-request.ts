import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { PROVIDER_SIDE_FAMILIES } from './family-registry.js';
import type { Finding } from '../../shared/findings/finding.js';
import { judgeForbiddenFields } from '../rules/forbidden-fields.js';
import { judgeRequestSchema } from '../rules/request-schema-judge.js';
import { contestedMark } from '../rules/contested-mark.js';
import { readAsProvider } from '../rules/accepted-shapes.js';
import { judgeModelRefusals } from '../rules/model-refusals.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { settleFindings, type AnswerPolicy } from './answer-policy.js';

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

/**
 * The findings as the mock itself answers this body: judged with the rule set of its model (the body's `model`, or
 * `model` for the families that name it in the path; model-less, the whole spec), the model's own refusals first, and
 * each contested finding the mock answers leniently marked `lenient` (answer-policy.ts). The mock refuses the request
 * when some finding is not `lenient`; an empty list, or one of lenient findings only, is accepted with a warning.
 */
export function judgeAsTheMock(
  spec: ProviderSpec,
  body: unknown,
  options: AnswerPolicy & { model?: string } = {},
): Finding[] {
  const named = options.model ?? (isPlainObject(body) && typeof body.model === 'string' ? body.model : undefined);
  if (named === undefined) return settleFindings(judgeRequest(spec, body), options).findings;
  const stream = isPlainObject(body) && body.stream === true;
  return settleFindings(
    [...judgeModelRefusals(spec, named, body, stream), ...judgeRequest(specForModel(spec, named), body)],
    options,
  ).findings;
}
