/**
 * What the gate decides, cell by cell. A cell is one scenario run against one provider target
 * through the route the table resolves for it. Reports, JUnit and the exit code are all derived
 * from these records and nothing else.
 */

/**
 * - pass / fail: the behaviour held / was broken.
 * - warn: nothing is rejected or lost, but it costs something the user should know about (an extra
 *   round trip through the unknown-field fallback; a rule whose sources disagree). Its own status:
 *   not a pass, and not a fail (exit 0 unless `check --strict`).
 * - n/a: the cell never exercised the behaviour.
 */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'n/a';

/** Every status, worst first: the order aggregation uses. */
export const CHECK_STATUSES: readonly CheckStatus[] = ['fail', 'warn', 'pass', 'n/a'];

/**
 * The behaviours a cell is judged on; the report's columns. Each check names one.
 * - fields-sent: only fields the route reads travel, and fields the provider wants arrive
 * - provider-accepts: the provider (mock) answered 2xx to every call
 * - must-echo: reasoning_content present on tool-call turns; the pad only where nothing was stored
 * - strict-schema: no extra key reached a strict provider
 * - signatures-verbatim: signed/encrypted items replayed byte for byte, in order
 * - native-scoped: a native record reached its own route and no other
 * - history-unmutated: replay never edited the history it was given
 * - fallback-recovers: an unknown-field rejection was recorded and the single retry succeeded
 * - survives-compaction / survives-branch / survives-resume: carriers kept byte for byte
 * - compaction-kept: a provider's compaction item (Anthropic compaction block, Responses compaction item) went
 *   back whole to the route that issued it, on every later call and after the engine's own compaction, branch
 *   and resume, and to no other route
 * - binding-respected: no thinking block bound to its prefix (Claude Fable 5.1 and later) was sent after its
 *   prefix changed
 */
export const BEHAVIOURS = [
  'fields-sent',
  'provider-accepts',
  'must-echo',
  'strict-schema',
  'signatures-verbatim',
  'native-scoped',
  'history-unmutated',
  'fallback-recovers',
  'survives-compaction',
  'survives-branch',
  'survives-resume',
  'compaction-kept',
  'binding-respected',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface Check {
  behaviour: Behaviour;
  status: CheckStatus;
  /** One line a person can act on: which call, which message, which field. */
  detail: string;
  /** The same problems as structured records (detail is their text, one per line). */
  findings?: JudgeFinding[];
}

/**
 * One thing the judge found, structured: who, where, what and on whose authority. `detail` lines
 * are rendered from these; tools read these instead of parsing text.
 */
export interface JudgeFinding {
  behaviour: Behaviour;
  status: 'fail' | 'warn' | 'pass';
  /** Provider spec id the finding is about. */
  provider: string;
  /** Route the provider resolved to. */
  route?: string;
  /** Scenario call index, when it comes from a run (absent for findings read off the table). */
  call?: number;
  attempt?: 1 | 2;
  /** History message index, or the kind of turn a table-level finding concerns. */
  message?: number;
  turns?: 'tool-call-turns' | 'assistant-turns' | 'every-request';
  /** Carrier field or request parameter concerned. */
  field?: string;
  /** Where the rule comes from (provider spec source URL). */
  source?: string;
  detail: string;
}

export interface ExchangeRecord {
  call: number;
  /** Provider spec id the call went to (differs from the cell's target on a route switch). */
  provider: string;
  route: string;
  url: string;
  status: number;
  /** Carrier fields present anywhere in the request body. */
  sentFields: string[];
  /** The mock's own findings (rule ids) and the error body it answered with, if any. */
  violations: string[];
  error?: unknown;
  /** Which attempt this was: 1, or 2 for the fallback's single retry. */
  attempt: 1 | 2;
}

export interface CellVerdict {
  scenario: string;
  /** Provider spec id, e.g. "deepseek". */
  target: string;
  route: string;
  tier: string;
  family: string;
  status: CheckStatus;
  checks: Check[];
  exchanges: ExchangeRecord[];
  fixture?: { path: string; provenance: 'recorded' | 'synthesized' | 'imported' };
}

export interface ConformanceRun {
  routesFile: string;
  startedAt: string;
  durationMs: number;
  cells: CellVerdict[];
  /**
   * Operations the engine under test does not implement, the behaviours that needed them and in how many scenario
   * runs: reported as "not judged", never as passed (decision 0064).
   */
  notJudged?: Array<{
    operation: 'fallback' | 'read' | 'stream' | 'store' | 'compact';
    behaviours: Behaviour[];
    cells: number;
  }>;
  /** The harm judge's reading of the table per provider target (also folded into the cells). */
  harm?: Array<{ provider: string; label: string; route: string; reachedAs?: string; findings: JudgeFinding[] }>;
}

/** The worst status present: fail, then warn, then pass; n/a when there is nothing else (or nothing). */
export function aggregateStatus(statuses: readonly CheckStatus[]): CheckStatus {
  if (statuses.includes('fail')) return 'fail';
  if (statuses.includes('warn')) return 'warn';
  if (statuses.includes('pass')) return 'pass';
  return 'n/a';
}

/** A cell fails when any check fails, warns when any warns (and none fails); it is n/a when every check is n/a. */
export function cellStatus(checks: Check[]): CheckStatus {
  return aggregateStatus(checks.map((c) => c.status));
}
