import type { InjectedFault, IssuedCarriers } from '../../../shared/faults/fault-record.js';
import { FaultRecoveryJudge, type FaultVerdict } from '../../../judge/faults/fault-recovery-judge.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * `--faults` in serve: the provider side injects them into its answers (src/provider/handlers/answer-http-request.ts,
 * src/provider/faults/), and the judge reads every later request. Thin on purpose: what a fault is lives in
 * specs/faults.json, how it is judged in src/judge/faults/.
 */
export class ServeFaults {
  private readonly judge = new FaultRecoveryJudge();

  constructor(private readonly pending: () => string[]) {}

  /** Files the judge's findings on the request's log entry, before it is logged. */
  judgeEntry(
    entry: ServeLogEntry,
    body: unknown,
    fault: InjectedFault | undefined,
    issued: IssuedCarriers | undefined,
  ): void {
    if (fault) entry.fault = { name: fault.name, ...(fault.where ? { where: fault.where } : {}) };
    const seen = this.judge.observe({
      seq: entry.seq,
      atMs: Date.parse(entry.time),
      session: `${entry.client ?? ''}\u0000${entry.runId ?? ''}\u0000${entry.provider}`,
      provider: entry.provider,
      status: entry.status,
      body,
      ...(fault ? { fault } : {}),
      ...(issued && entry.status >= 200 && entry.status < 300 ? { issued } : {}),
    });
    entry.findings.push(...seen.findings);
    if (seen.expectedRefusalOf) entry.expectedRefusal = seen.expectedRefusalOf;
  }

  verdicts(): FaultVerdict[] {
    return this.judge.verdicts();
  }

  /** Faults named but never injected: no answer they could apply to came by. */
  notReached(): string[] {
    return this.pending();
  }
}
