import type { Finding } from '../../../shared/findings/finding.js';
import type { ProviderSpec, Rejection } from '../../../shared/provider-specs/provider-spec.js';
import { brokeARule, type ServeLogEntry, type ServeMiss } from './serve-log.js';

/** One finding as a test runner shows it: the rule, the provider's rejection, and where the rule is written. */
export interface FlaggedFinding {
  rule: string;
  rejection: string;
  detail?: string;
  /** A contested rule answered as its lenient side: a warning, never a failure (docs/decisions/0044). */
  warning: boolean;
  contested?: true;
  /** The rejection's sources in the provider spec; a contested rule's are both sides, the stricter first. */
  sources: string[];
  /** A gateway passing on its upstream's rejection: the upstream's provider id. */
  via?: string;
}

/** A request that broke a rule, or warned, or that no mock could be handed (a miss). */
export interface FlaggedRequest {
  /** Position among everything flagged since serve started: the cursor `GET /findings.json?since=N` reads from. */
  n: number;
  verdict: 'fail' | 'warn';
  request: {
    /** The serve log's seq; a miss is never logged, so it has none. */
    seq?: number;
    provider?: string;
    route?: string;
    call?: number;
    method: string;
    path: string;
    status: number;
    client?: string;
  };
  findings: FlaggedFinding[];
  /** A miss: what serve answered instead of a mock (the path it expected, the content type it read). */
  miss?: { reason: ServeMiss['reason']; message: string };
}

/** What `GET /findings.json` answers; mirrors specs/schema/serve-findings.schema.json. */
export interface FindingsAnswer {
  version: 1;
  /** Requests logged since serve started (misses excluded): a runner tells "sent nothing" from "all conformed". */
  requests: number;
  /** The cursor to ask from next time. */
  next: number;
  /** Flagged requests no longer held (the oldest go first past the limit): a reader that fell this far behind. */
  dropped: number;
  flagged: FlaggedRequest[];
}

/** Enough for any test session; a serve left running for days keeps its memory bounded. */
const DEFAULT_LIMIT = 10_000;

/**
 * The findings serve has seen so far, for a test runner that asks over HTTP after each test (the pytest plugin in
 * python/). The log line already holds each finding; what it lacks, and this adds, is the source of a rule that is
 * not contested (the rejection's sources in the provider spec), so a runner can say where a rule is written without
 * reading the specs itself. Only flagged requests are kept: a conforming request costs one counter.
 */
export class FindingsSoFar {
  private readonly byId: Map<string, ProviderSpec>;
  private readonly flagged: FlaggedRequest[] = [];
  private requests = 0;
  private next = 0;
  private dropped = 0;

  constructor(
    specs: readonly ProviderSpec[],
    private readonly limit = DEFAULT_LIMIT,
  ) {
    this.byId = new Map(specs.map((s) => [s.id, s]));
  }

  addEntry(entry: ServeLogEntry): void {
    this.requests++;
    const broke = brokeARule(entry);
    if (!broke && entry.findings.length === 0) return;
    const spec = this.byId.get(entry.provider);
    this.push({
      verdict: broke ? 'fail' : 'warn',
      request: {
        seq: entry.seq,
        provider: entry.provider,
        route: entry.route,
        call: entry.call,
        method: entry.method,
        path: entry.path,
        status: entry.status,
        ...(entry.client ? { client: entry.client } : {}),
      },
      findings: entry.findings.map((f) => this.flag(f, spec)),
    });
  }

  addMiss(miss: ServeMiss): void {
    this.push({
      verdict: 'fail',
      request: { method: miss.method, path: miss.path, status: miss.status },
      findings: [],
      miss: { reason: miss.reason, message: miss.message },
    });
  }

  since(cursor: number): FindingsAnswer {
    const first = this.next - this.flagged.length;
    return {
      version: 1,
      requests: this.requests,
      next: this.next,
      dropped: this.dropped,
      flagged: this.flagged.slice(Math.max(0, cursor - first)),
    };
  }

  private push(item: Omit<FlaggedRequest, 'n'>): void {
    this.flagged.push({ n: this.next++, ...item });
    if (this.flagged.length > this.limit) {
      this.flagged.shift();
      this.dropped++;
    }
  }

  private flag(f: Finding, spec: ProviderSpec | undefined): FlaggedFinding {
    return {
      rule: f.rule,
      rejection: f.rejection,
      ...(f.detail ? { detail: f.detail } : {}),
      warning: f.lenient === true,
      ...(f.contested ? { contested: true as const } : {}),
      sources: f.contested ? (f.sources ?? []) : this.sourcesOf(f, spec),
      ...(f.via ? { via: f.via.provider } : {}),
    };
  }

  /** The rejection's sources: the upstream's rule for a gateway-passed finding, then the gateway's own wording. */
  private sourcesOf(f: Finding, spec: ProviderSpec | undefined): string[] {
    const upstream = f.via ? this.byId.get(f.via.provider) : undefined;
    const found = [
      ...(upstream ? (rejectionOf(upstream, f.rejection)?.sources ?? []) : []),
      ...(spec ? (rejectionOf(spec, f.via?.gatewayRejection ?? f.rejection)?.sources ?? []) : []),
    ];
    return [...new Set(found)];
  }
}

/** A rejection by id: the provider's own, else a model variant's (variants hold per-model rejections). */
function rejectionOf(spec: ProviderSpec, id: string): Rejection | undefined {
  return spec.rejections[id] ?? spec.models?.variants?.find((v) => v.rejections?.[id])?.rejections?.[id];
}
