import type { Finding } from '../../../shared/findings/finding.js';
import type { EchoRule, ProviderSpec, Rejection } from '../../../shared/provider-specs/provider-spec.js';
import { fillRejection } from '../../../provider/handlers/fill-rejection.js';
import { providerMessage } from '../report/explain-check.js';

/** How to fix a finding, and where the rule comes from. */
export interface FindingFix {
  /** What to change in the client, in one sentence (ours, not the provider's words). */
  fix: string;
  /** The provider's own message for this refusal, as its spec quotes it (verbatim wording only). */
  providerSays?: string;
  /** Where the rule is documented or reported: the spec's sources for it, first the one it cites for the rule. */
  sources: string[];
}

const TURNS: Record<EchoRule['turns'], string> = {
  'tool-call-turns': 'every assistant turn that called a tool',
  'assistant-turns': 'every assistant turn',
  'current-turn': 'the current turn’s assistant messages',
};

/** What to change for each kind of refusal a spec names (`Rejection.kind`). */
const BY_KIND: Record<NonNullable<Rejection['kind']>, string> = {
  'unknown-field': 'send only the fields this provider’s API defines: drop the one it names',
  'missing-reasoning': 'send back the reasoning the provider’s answer carried, on the turn it came with',
  'invalid-signature':
    'send reasoning blocks back byte for byte as issued, signatures included: do not edit, re-encode or move them to another provider',
  'modified-reasoning': 'send the reasoning back exactly as issued: do not edit, trim, reorder or merge it',
  'missing-signature': 'keep the signature (or encrypted content) that came with each reasoning block and send it back',
  'invalid-request': 'make the request match the provider’s API at the place the finding names',
  'malformed-body': 'send a well-formed JSON body of the shape the provider’s API defines',
};

/** The spec a finding's rejection belongs to: a gateway passing on its upstream's refusal names the upstream. */
function owningSpec(
  f: Finding,
  spec: ProviderSpec | undefined,
  specs: readonly ProviderSpec[],
): ProviderSpec | undefined {
  if (f.via && !spec?.rejections[f.rejection]) return specs.find((s) => s.id === f.via!.provider) ?? spec;
  return spec;
}

/**
 * The fix for a finding, from the provider's spec: for a missing echo, the carrier its echo rule wants and on which
 * turns; otherwise what the kind of refusal asks of a client. The sources are the spec's own for that rule, and for a
 * contested rule both sides (the finding carries them).
 */
export function findingFix(f: Finding, spec: ProviderSpec | undefined, specs: readonly ProviderSpec[]): FindingFix {
  const owner = owningSpec(f, spec, specs);
  const rejection = owner?.rejections[f.rejection];
  // The provider's words as this request drew them: the spec's verbatim body, placeholders filled from the finding.
  const said =
    rejection?.wording === 'verbatim'
      ? providerMessage(JSON.stringify(fillRejection(rejection, f.params).body ?? null))
      : undefined;
  const field = typeof f.params.field === 'string' ? f.params.field : undefined;
  // Two echo rules may share a rejection (DeepSeek: tool-call turns, and the contested current turn): the finding's
  // own source (a contested finding lists it first) or its being contested tells which one it came from.
  const candidates = (owner?.echo ?? []).filter(
    (r) => r.rejection === f.rejection && (field === undefined || r.field === field),
  );
  const echo =
    candidates.find((r) => r.source !== undefined && f.sources?.[0] === r.source && !!r.contested === !!f.contested) ??
    candidates.find((r) => !!r.contested === !!f.contested) ??
    candidates[0];
  const sources = [...(f.sources ?? []), ...(echo?.source ? [echo.source] : []), ...(rejection?.sources ?? [])].filter(
    (s, i, all) => all.indexOf(s) === i,
  );
  let fix: string;
  if (f.rule === 'must-echo' && echo) {
    const also = echo.aliases?.length ? ` (or ${echo.aliases.join(', ')})` : '';
    fix = `send back ${echo.field}${also} on ${TURNS[echo.turns]}, exactly as the answer issued it${echo.allowEmpty === false ? ', and not empty' : ''}`;
  } else if (f.rule === 'compaction-kept')
    fix =
      'keep the compaction item (or block) the answer issued in the history, whole, and send it on every later request of the conversation';
  else if (rejection?.kind) fix = BY_KIND[rejection.kind];
  else if (f.rule === 'must-echo') fix = BY_KIND['missing-reasoning'];
  else fix = 'change the request where the finding points, so it matches what this provider accepts';
  return { fix, ...(said ? { providerSays: said } : {}), sources };
}
