import { isDeepStrictEqual } from 'node:util';
import type { Finding } from '../../shared/findings/finding.js';
import { carrierValues } from '../../shared/faults/carrier-values.js';
import type { FaultExchange, InjectedFault, IssuedCarriers } from '../../shared/faults/fault-record.js';
import {
  DEFAULT_MAX_RETRIES,
  loadFaultCatalogue,
  type Fault,
  type FaultCatalogue,
  type FaultDamage,
} from '../../shared/faults/fault-catalogue.js';

/** The behaviour this judge fills, in the run report, the client report and JUnit. */
export const RECOVERS_FROM_FAULTS = 'recovers-from-faults';

/** How one injected fault went: the agent recovered, or the request that first showed the damage and the fix. */
export interface FaultVerdict {
  fault: string;
  session: string;
  provider: string;
  /** The request whose answer the fault changed. */
  injectedAt: number;
  where?: string;
  status: 'pass' | 'fail';
  damage?: { seq: number; what: FaultDamage; detail: string };
  /** Requests of the session after the faulted one: 0 means the agent stopped there (nothing poisoned, nothing recovered). */
  requestsAfter: number;
  fix: string;
  sources: string[];
}

interface Injected {
  record: InjectedFault;
  fault: Fault;
  exchange: FaultExchange;
  verdict: FaultVerdict;
  /** The refusal the fault caused (a foreign signature's first), from which recovery is awaited. */
  refusedAt?: number;
}

interface Session {
  exchanges: FaultExchange[];
  injected: Injected[];
  /** Values issued whole by a finished answer: a value a cut left unfinished is fine once one of these has it. */
  issued: Set<string>;
  turns: Array<{ seq: number; issued: IssuedCarriers }>;
  /** Foreign signatures a refusal has already named: sending them again is resubmitting a poisoned history. */
  refusedForeign: Set<string>;
}

/** What one request showed: the findings to file on it, and whether its refusal was the fault's own consequence. */
export interface FaultObservation {
  findings: Finding[];
  /** The fault whose damage a provider refused here, when the agent could not have avoided it (the first refusal of a foreign signature). */
  expectedRefusalOf?: string;
}

const refusedStatus = (status: number) => status >= 400 && status < 500 && status !== 429;

/**
 * Holds an agent's requests after a fault against what a session that survives looks like: no truncated, empty,
 * unfinished or foreign signature and no partial thinking block; every completed turn's carriers still there; resends
 * within bounds and no sooner than Retry-After; after a refusal, one recovery by the fault's documented means, never
 * the same history again. Requests are fed in arrival order (`observe`), per session; verdicts say per fault whether
 * the agent recovered, and the first request that showed otherwise.
 */
export class FaultRecoveryJudge {
  private readonly sessions = new Map<string, Session>();
  private readonly byName: Map<string, Fault>;

  constructor(catalogue: FaultCatalogue = loadFaultCatalogue()) {
    this.byName = new Map(catalogue.faults.map((f) => [f.name, f]));
  }

  observe(x: FaultExchange): FaultObservation {
    let session = this.sessions.get(x.session);
    if (!session) {
      session = { exchanges: [], injected: [], issued: new Set(), turns: [], refusedForeign: new Set() };
      this.sessions.set(x.session, session);
    }
    const out: FaultObservation = { findings: [] };
    if (session.injected.length > 0) this.judge(session, x, out);
    this.record(session, x);
    return out;
  }

  /**
   * One verdict per injected fault, in injection order. A session left stuck fails too, though no request shows it:
   * after an error status no resend was answered, or after the refusal an upstream switch caused no request got
   * through (the agent gave up instead of stripping and retrying once).
   */
  verdicts(): FaultVerdict[] {
    return [...this.sessions.values()].flatMap((s) =>
      s.injected.map((injected) => {
        const requestsAfter = s.exchanges.filter((e) => e.seq > injected.exchange.seq).length;
        const i = { ...injected, verdict: { ...injected.verdict, requestsAfter } };
        const from = i.fault.inject.kind === 'http-error' ? i.exchange.seq : i.refusedAt;
        if (i.verdict.status === 'fail' || from === undefined) return i.verdict;
        if (s.exchanges.some((e) => e.seq > from && e.status >= 200 && e.status < 300)) return i.verdict;
        const detail = `after fault ${i.fault.name} (request #${i.exchange.seq}${i.record.where ? `: ${i.record.where}` : ''}), no later request was answered after request #${from}: the session did not recover; fix: ${i.fault.nextStep}`;
        return { ...i.verdict, status: 'fail' as const, damage: { seq: from, what: 'no-recovery' as const, detail } };
      }),
    );
  }

  private record(session: Session, x: FaultExchange): void {
    session.exchanges.push(x);
    if (x.fault) {
      const fault = this.byName.get(x.fault.name);
      if (fault)
        session.injected.push({
          record: x.fault,
          fault,
          exchange: x,
          verdict: {
            fault: fault.name,
            session: x.session,
            provider: x.provider,
            injectedAt: x.seq,
            ...(x.fault.where ? { where: x.fault.where } : {}),
            status: 'pass',
            requestsAfter: 0,
            fix: fault.nextStep,
            sources: fault.sources.map((s) => s.url),
          },
        });
      // A fallback model's answer, and one that reported a dropped block, finished: their carriers are a completed
      // turn's like any other.
      if (fault?.inject.kind !== 'model-fallback' && fault?.inject.kind !== 'bound-block-dropped') return;
    }
    if (x.status >= 200 && x.status < 300 && x.issued) {
      session.turns.push({ seq: x.seq, issued: x.issued });
      for (const v of [...x.issued.signatures, ...x.issued.texts]) session.issued.add(v);
    }
  }

  private judge(session: Session, x: FaultExchange, out: FaultObservation): void {
    const values = carrierValues(x.body);
    const sent = new Set(values.signatures);
    const flag = (inj: Injected, what: FaultDamage, problem: string) => {
      // The first damage of a kind says the fix; the same damage again only names the request.
      const again = inj.verdict.damage !== undefined && inj.verdict.damage.what === what;
      const detail = again
        ? `again after fault ${inj.fault.name}: request #${x.seq} ${problem}`
        : `after fault ${inj.fault.name} (request #${inj.exchange.seq}${inj.record.where ? `: ${inj.record.where}` : ''}), request #${x.seq} ${problem}; fix: ${inj.fault.nextStep}`;
      out.findings.push({
        rule: RECOVERS_FROM_FAULTS,
        rejection: `fault:${inj.fault.name}`,
        params: { fault: inj.fault.name, injectedAt: inj.exchange.seq, damage: what },
        detail,
        sources: inj.fault.sources.map((s) => s.url),
      });
      if (inj.verdict.status === 'pass') {
        inj.verdict.status = 'fail';
        inj.verdict.damage = { seq: x.seq, what, detail };
      }
    };

    for (const inj of session.injected) {
      for (const u of inj.record.unfinished) {
        if (session.issued.has(u.value)) continue;
        if (u.what !== 'partial-thinking' && sent.has(u.value)) {
          flag(
            inj,
            'truncated-signature',
            u.what === 'truncated-signature'
              ? `sends back the signature the cut stream delivered in part (${u.value.length} characters)`
              : 'sends back the signature of a reasoning block whose stop never arrived',
          );
        }
        if (u.what === 'partial-thinking') {
          const block = values.blocks.find(
            (b) => b.text === u.value && (b.signature === undefined || !session.issued.has(b.signature)),
          );
          if (block)
            flag(
              inj,
              'partial-thinking',
              `replays the reasoning text the cut stream delivered in part, at ${block.at || '/'}`,
            );
        }
      }
      if (inj.fault.inject.kind === 'stream-cut') {
        const empty = values.blocks.find((b) => b.signature === '');
        if (empty) flag(inj, 'empty-signature', `sends a reasoning block with an empty signature at ${empty.at}`);
      }
      // A block the provider reported it dropped no longer binds: sending it again is sending it to a prefix it is
      // not bound to (refused outright under prefix_mismatch_behavior "error").
      const resent = (inj.record.dropped ?? []).filter((d) => sent.has(d));
      if (resent.length > 0 && inj.exchange.seq < x.seq)
        flag(
          inj,
          'dropped-block-resent',
          `sends again ${resent.length} thinking block(s) the provider reported it dropped (input_transformations)`,
        );
      const foreign = inj.record.foreign.filter((f) => sent.has(f));
      if (foreign.length > 0) {
        if (foreign.some((f) => session.refusedForeign.has(f))) {
          const previous = session.exchanges.at(-1);
          const same = previous !== undefined && isDeepStrictEqual(previous.body, x.body);
          flag(
            inj,
            same ? 'same-history-resubmitted' : 'foreign-signature',
            same
              ? 'resubmits the very history the provider refused for a signature another upstream minted'
              : 'still sends a signature another upstream minted, after the provider refused it',
          );
        } else if (refusedStatus(x.status)) {
          // The first refusal is the fault itself: the agent could not know. Recovery is judged from here on.
          out.expectedRefusalOf = inj.fault.name;
          inj.refusedAt ??= x.seq;
          for (const f of foreign) session.refusedForeign.add(f);
        }
      }
    }

    // Every turn that completed keeps its carriers wherever a later request replays it (its tool calls are there).
    const afterFault = session.injected.some((i) => i.exchange.seq < x.seq);
    const droppedByProvider = new Set(
      session.injected.filter((i) => i.exchange.seq < x.seq).flatMap((i) => i.record.dropped ?? []),
    );
    if (afterFault) {
      const ids = new Set(values.callIds);
      for (const turn of session.turns) {
        if (!turn.issued.callIds.some((id) => ids.has(id))) continue;
        // What the provider reported dropped is to leave the history, not to be kept.
        const missing = turn.issued.signatures.filter((s) => !sent.has(s) && !droppedByProvider.has(s));
        if (missing.length === 0) continue;
        const inj =
          session.injected.find((i) => i.exchange.seq < x.seq && i.fault.damage.includes('dropped-carrier')) ??
          session.injected.find((i) => i.exchange.seq < x.seq)!;
        flag(
          inj,
          'dropped-carrier',
          `replays the turn answered at request #${turn.seq} without ${missing.length} of its ${turn.issued.signatures.length} signature(s)`,
        );
      }
    }

    // Bounded resends of the faulted request, no sooner than Retry-After.
    for (const inj of session.injected) {
      const kind = inj.fault.inject.kind;
      if (kind !== 'http-error' && kind !== 'stream-cut') continue;
      if (!isDeepStrictEqual(inj.exchange.body, x.body)) continue;
      const since = session.exchanges.filter((e) => e.seq > inj.exchange.seq);
      const firstResend = since.every((e) => !isDeepStrictEqual(e.body, x.body));
      const wait = inj.record.retryAfterMs;
      if (firstResend && wait !== undefined && x.atMs - inj.exchange.atMs < wait - 50) {
        flag(
          inj,
          'early-retry',
          `resends the request ${x.atMs - inj.exchange.atMs} ms after a Retry-After of ${wait / 1000} s`,
        );
      }
      const resends = since.filter((e) => isDeepStrictEqual(e.body, x.body)).length + 1;
      const bound = inj.fault.maxRetries ?? DEFAULT_MAX_RETRIES;
      if (resends === bound + 1) flag(inj, 'retry-loop', `is resend ${resends} of the same request (bound ${bound})`);
    }

    // After a refusal of damage, the next request must change the history: never the same one again.
    const previous = session.exchanges.at(-1);
    if (
      previous &&
      refusedStatus(previous.status) &&
      previous.seq > Math.min(...session.injected.map((i) => i.exchange.seq)) &&
      isDeepStrictEqual(previous.body, x.body) &&
      !out.findings.some((f) => f.params.damage === 'same-history-resubmitted')
    ) {
      const inj = session.injected.at(-1)!;
      flag(inj, 'same-history-resubmitted', `resubmits the history the provider refused at request #${previous.seq}`);
    }
  }
}
