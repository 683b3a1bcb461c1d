import type { Finding } from '../../shared/findings/finding.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';

/** A family's own request rules (signatures, pairing, required native carriers). Pure: spec + body in, findings out. */
export type RequestJudge = (spec: ProviderSpec, body: unknown) => Finding[];
