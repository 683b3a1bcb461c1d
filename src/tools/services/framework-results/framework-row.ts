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
}
