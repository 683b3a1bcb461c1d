import type { DriftCategory } from './classify.js';

/**
 * One result of a run: a real-world case's request, or one call (one attempt) of a scenario.
 * `compared` results are sorted into the four drift categories; the others say why nothing was
 * compared: `skipped` (never sendable here), `not-run` (the run stopped first), `inconclusive`
 * (the mock could not answer, a live 5xx, a setup call refused), `error` (no whole answer).
 */
export interface VerifyResult {
  provider: string;
  kind: 'case' | 'scenario';
  /** The case id or the scenario id. */
  id: string;
  /** Scenario call and attempt (2: the fallback's retry). */
  call?: number;
  attempt?: number;
  model: string;
  outcome: 'compared' | 'skipped' | 'not-run' | 'inconclusive' | 'error';
  category?: DriftCategory;
  /** The rule the result is filed under (see classify.ts). */
  rule?: string;
  liveRule?: string;
  /** What differs, or why nothing was compared. */
  detail: string;
  mock?: string;
  live?: string;
  /** Requests this result cost (a case's setup calls included). */
  requests: number;
  /** The real-world case file written for a disagreement, relative to the output folder. */
  caseFile?: string;
  /** Why no case file was written for a disagreement (a credential-shaped value survived, say). */
  caseRefused?: string;
}

export const resultLabel = (r: Pick<VerifyResult, 'kind' | 'id' | 'call' | 'attempt'>) =>
  r.kind === 'case' ? `case ${r.id}` : `scenario ${r.id} call ${r.call}${r.attempt && r.attempt > 1 ? ` (retry)` : ''}`;
