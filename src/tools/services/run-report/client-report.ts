import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../../shared/findings/finding.js';
import type { ServeLogEntry } from '../serve/serve-log.js';

/**
 * What a request log can show about a client, behaviour by behaviour. `not-observable` is not a
 * pass: the behaviour happens inside the client (its history, its retries, its storage), and no
 * request shows it. `n/a` means this provider's mock does not judge it at all.
 */
export type ClientCellStatus = 'pass' | 'warn' | 'fail' | 'n/a' | 'not-observable';

/** The report's columns, in order, with what a log shows of each. */
export const CLIENT_BEHAVIOURS: ReadonlyArray<{ behaviour: string; observable: boolean; why?: string }> = [
  { behaviour: 'provider-accepts', observable: true },
  { behaviour: 'must-echo', observable: true },
  { behaviour: 'strict-schema', observable: true },
  { behaviour: 'signatures-verbatim', observable: true },
  { behaviour: 'native-scoped', observable: true },
  // Judged only where `--faults` injected one: the agent's requests after it (src/judge/faults/).
  { behaviour: 'recovers-from-faults', observable: true },
  {
    behaviour: 'fields-sent',
    observable: false,
    why: 'needs the history the client replayed from, which a request log does not hold',
  },
  { behaviour: 'history-unmutated', observable: false, why: 'happens in the client’s memory' },
  {
    behaviour: 'fallback-recovers',
    observable: false,
    why: 'needs an unknown-field rejection the follow-mode mocks never provoke',
  },
  { behaviour: 'survives-compaction', observable: false, why: 'happens in the client’s storage' },
  { behaviour: 'survives-branch', observable: false, why: 'happens in the client’s storage' },
  { behaviour: 'survives-resume', observable: false, why: 'happens in the client’s storage' },
  // Judged by serve over its own answers and the requests after them (serve-compaction.ts), where one was issued.
  { behaviour: 'compaction-kept', observable: true },
  {
    behaviour: 'binding-respected',
    observable: false,
    why: 'judged over a run’s own exchanges; not yet read from a request log',
  },
];

export interface ClientCell {
  client: string;
  provider: string;
  route: string;
  family: string;
  behaviour: string;
  status: ClientCellStatus;
  /** Requests in this cell's (client, provider) group. */
  requests: number;
  detail: string;
}

export interface ClientReport {
  source: 'log';
  runIds: string[];
  clients: string[];
  behaviours: string[];
  cells: ClientCell[];
  summary: {
    /** fail: a cell fails; warn: none fails and one warns (a contested rule answered leniently); else pass. */
    verdict: 'pass' | 'warn' | 'fail';
    requests: number;
    pass: number;
    warn: number;
    fail: number;
    na: number;
    notObservable: number;
  };
}

/** Does this provider's mock judge `behaviour` at all? Only then is the absence of a finding a pass. */
export function judges(
  spec: ProviderSpec | undefined,
  behaviour: string,
  group: readonly Pick<ServeLogEntry, 'fault' | 'compactionJudged'>[],
): boolean {
  if (behaviour === 'provider-accepts') return true;
  if (behaviour === 'recovers-from-faults') return group.some((e) => e.fault);
  if (behaviour === 'compaction-kept') return group.some((e) => e.compactionJudged);
  if (!spec) return false;
  if (behaviour === 'strict-schema') return spec.request.unknownFieldRejection !== undefined;
  if (behaviour === 'must-echo') return spec.echo.some((r) => r.level === 'required');
  if (behaviour === 'signatures-verbatim')
    return Object.values(spec.rejections).some((r) => r.kind === 'invalid-signature' || r.kind === 'missing-signature');
  // No mock rule files findings under native-scoped yet (a foreign native record is seen only by the
  // matrix judge, which has the history): n/a rather than a pass nothing stood behind.
  return false;
}

const MAX_LISTED = 5;

/** A finding as one line: what, and for a contested rule its id, how it was answered and both sides' sources. */
export function describeFinding(f: Finding): string {
  const what = f.detail ?? `${f.rule} -> ${f.rejection}`;
  if (!f.contested) return what;
  const how = f.lenient
    ? f.recordedAcceptance?.length
      ? 'accepted: a recording shows the provider accepting it'
      : 'accepted as its lenient side'
    : 'refused under --strict';
  return `${what} (contested rule ${f.rejection}, ${how}; sources disagree: ${(f.sources ?? []).join(', ')})`;
}

function describeRequest(e: ServeLogEntry, findings: Finding[]): string {
  const what = findings.length ? `: ${findings.map(describeFinding).join('; ')}` : '';
  return `request #${e.seq} (call ${e.call}, ${e.method} ${e.path}) answered ${e.status}${what}`;
}

const OBSERVED = new Set(CLIENT_BEHAVIOURS.filter((b) => b.observable).map((b) => b.behaviour));
/** The column a mock finding is listed under: its rule when that is a column, else provider-accepts. */
const columnOf = (f: Finding): string => (OBSERVED.has(f.rule) ? f.rule : 'provider-accepts');
// An injected fault's answer, and the refusal it caused, are not the client's doing (serve-log.ts brokeARule).
const refused = (e: ServeLogEntry) => (e.status < 200 || e.status >= 300) && !e.fault && !e.expectedRefusal;

/**
 * The findings of one request listed under `behaviour`, each finding under one column only. provider-accepts also
 * takes a refusal no refusing finding of another column explains (a harness error, an unworded 4xx), so a refusal
 * for must-echo is listed under must-echo and not a second time under provider-accepts.
 */
function listedUnder(e: ServeLogEntry, behaviour: string): { findings: Finding[]; broken: boolean; warned: boolean } {
  const findings = e.findings.filter(
    (f) => columnOf(f) === behaviour && (!e.expectedRefusal || f.rule === 'recovers-from-faults'),
  );
  let broken = findings.some((f) => !f.lenient);
  if (behaviour === 'provider-accepts' && refused(e) && !e.findings.some((f) => !f.lenient)) broken = true;
  return { findings, broken, warned: !broken && findings.length > 0 };
}

/**
 * The log as cells per client x provider x behaviour, in one pass over the entries (groups are
 * arrays pushed to, never copied: a 20k-line log costs what two 10k ones do).
 */
export function clientReport(entries: readonly ServeLogEntry[], specs: readonly ProviderSpec[]): ClientReport {
  const byId = new Map(specs.map((s) => [s.id, s]));
  const groups = new Map<string, ServeLogEntry[]>();
  const runIds = new Set<string>();
  for (const e of entries) {
    const key = `${e.client ?? 'unknown client'}\u0000${e.provider}`;
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
    if (e.runId) runIds.add(e.runId);
  }
  const cells: ClientCell[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const spec = byId.get(first.provider);
    const base = {
      client: first.client ?? 'unknown client',
      provider: first.provider,
      route: first.route,
      family: first.family,
      requests: group.length,
    };
    for (const { behaviour, observable, why } of CLIENT_BEHAVIOURS) {
      if (!observable) {
        cells.push({
          ...base,
          behaviour,
          status: 'not-observable',
          detail: `not observable from a request log: ${why}`,
        });
        continue;
      }
      const broken: Array<[ServeLogEntry, Finding[]]> = [];
      const warned: Array<[ServeLogEntry, Finding[]]> = [];
      for (const e of group) {
        const listed = listedUnder(e, behaviour);
        if (listed.broken) broken.push([e, listed.findings]);
        else if (listed.warned) warned.push([e, listed.findings]);
      }
      const shown = broken.length > 0 ? broken : warned;
      if (shown.length > 0) {
        const listed = shown.slice(0, MAX_LISTED).map(([e, f]) => describeRequest(e, f));
        if (shown.length > MAX_LISTED)
          listed.push(`… and ${shown.length - MAX_LISTED} more of ${group.length} requests`);
        cells.push({ ...base, behaviour, status: broken.length > 0 ? 'fail' : 'warn', detail: listed.join('\n') });
      } else if (!judges(spec, behaviour, group)) {
        cells.push({
          ...base,
          behaviour,
          status: 'n/a',
          detail:
            behaviour === 'recovers-from-faults'
              ? 'no fault was injected into these answers (run or serve --faults)'
              : behaviour === 'compaction-kept'
                ? 'no answer issued a compaction item that a later request of its conversation had to carry back'
                : `the ${first.provider} mock does not judge ${behaviour}`,
        });
      } else {
        cells.push({
          ...base,
          behaviour,
          status: 'pass',
          detail: `${group.length} request${group.length === 1 ? '' : 's'}, none broke it`,
        });
      }
    }
  }
  cells.sort((a, b) => a.client.localeCompare(b.client) || a.provider.localeCompare(b.provider));
  const count = (s: ClientCellStatus) => cells.filter((c) => c.status === s).length;
  const fail = count('fail');
  const warn = count('warn');
  return {
    source: 'log',
    runIds: [...runIds].sort(),
    clients: [...new Set(cells.map((c) => c.client))],
    behaviours: CLIENT_BEHAVIOURS.map((b) => b.behaviour),
    cells,
    summary: {
      verdict: fail > 0 ? 'fail' : warn > 0 ? 'warn' : 'pass',
      requests: entries.length,
      pass: count('pass'),
      warn,
      fail,
      na: count('n/a'),
      notObservable: count('not-observable'),
    },
  };
}
