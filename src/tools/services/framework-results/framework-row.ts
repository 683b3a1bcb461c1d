/**
 * One row of the framework matrix (a framework x provider x version run) and its verdict: the record
 * `npm run frameworks` writes to reports/frameworks.json and the compatibility report reads.
 */
/**
 * A row's verdict: `pass` (every request accepted, reasoning replayed), `warn` (accepted, but a contested
 * rule answered as its lenient side, or nothing replayed: never a failure), `fail` (a mock refused a
 * request: a rule broken), `agent-failed` (the agent stopped on its own), `skipped` (could not run here).
 */
export type FrameworkVerdict = 'pass' | 'warn' | 'fail' | 'agent-failed' | 'skipped';

/** Which request broke which rule, and the carrier it dropped or changed. */
export interface FrameworkEvidence {
  request: string;
  status: number;
  rule: string;
  rejection: string;
  /** The JSON path or field of the carrier the finding is about, as the mock reported it. */
  carrier: string;
  detail: string;
}

/**
 * How a framework × provider row went under one injected fault (a streamed run of its agent with `--faults NAME`):
 * `survives` (no request after the fault carried its damage, and the agent finished its task), `poisoned` (a later
 * request carried the damage: recovers-from-faults failed), `gave-up` (the agent stopped after the fault having sent
 * nothing poisoned: a stream cut it did not retry), `not-injected` (no answer the fault applies to came), `skipped`.
 */
export type FaultOutcome = 'survives' | 'poisoned' | 'gave-up' | 'not-injected' | 'skipped';

export interface FaultCell {
  fault: string;
  outcome: FaultOutcome;
  /** The request whose answer the fault changed, and where (e.g. how much of the signature was sent). */
  injected?: string;
  /** The request that first showed the damage, what it was, and the fix. */
  damage?: { request: string; what: string; detail: string };
  /** One line: why this outcome. */
  reason: string;
  requests: number;
}

export interface FrameworkRow {
  key: string;
  framework: string;
  frameworkName: string;
  frameworkVersion: string;
  provider: string;
  package: string;
  packageVersion: string;
  stream: boolean;
  verdict: FrameworkVerdict;
  /** The rule broken (fail), or the contested rule warned about (warn). */
  rule?: string;
  /** One line: why this verdict. */
  reason: string;
  evidence?: FrameworkEvidence;
  requests: number;
  knownIssue?: string;
  pair?: { id: string; side: 'bug' | 'fixed'; expected: string; met: boolean };
  /** The faults column: this row's agent run streamed under each fault that applies to its provider. */
  faults?: FaultCell[];
}
