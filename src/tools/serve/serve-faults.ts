import type { Fault } from '../../shared/faults/fault-catalogue.js';
import type { InjectedFault } from '../../shared/faults/fault-record.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RenderedAnswer } from '../../provider/answers/answer-renderer.js';
import {
  FaultInjector,
  issuedCarriers,
  type FaultAnswer,
  type FaultedAnswer,
} from '../../provider/faults/fault-injector.js';
import { FaultRecoveryJudge, type FaultVerdict } from '../../judge/faults/fault-recovery-judge.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * `--faults` in serve: the provider side's injector shapes the answers, the judge reads every later request. Thin on
 * purpose: what a fault is lives in specs/faults.json, how it is injected in src/provider/faults/, how it is judged in
 * src/judge/faults/.
 */
export class ServeFaults {
  private readonly injector: FaultInjector;
  private readonly judge = new FaultRecoveryJudge();

  constructor(faults: readonly Fault[], seed: number) {
    this.injector = new FaultInjector(faults, seed);
  }

  /** An error status in place of the provider's answer, when one is due here. */
  instead(spec: ProviderSpec, body: unknown): FaultAnswer | undefined {
    return this.injector.answerInstead({ provider: spec.id, family: spec.family, body, stream: false });
  }

  /** The answer as a due fault changes it. */
  shape(spec: ProviderSpec, body: unknown, stream: boolean, rendered: RenderedAnswer): FaultedAnswer | undefined {
    return this.injector.shape({ provider: spec.id, family: spec.family, body, stream }, rendered);
  }

  /** Files the judge's findings on the request's log entry, before it is logged. */
  judgeEntry(
    entry: ServeLogEntry,
    body: unknown,
    fault: InjectedFault | undefined,
    answer: RenderedAnswer | undefined,
    cut: boolean,
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
      ...(answer && !cut && entry.status >= 200 && entry.status < 300 ? { issued: issuedCarriers(answer) } : {}),
    });
    entry.findings.push(...seen.findings);
    if (seen.expectedRefusalOf) entry.expectedRefusal = seen.expectedRefusalOf;
  }

  verdicts(): FaultVerdict[] {
    return this.judge.verdicts();
  }

  /** Faults named but never injected: no answer they could apply to came by. */
  notReached(): string[] {
    return this.injector.pending();
  }
}
