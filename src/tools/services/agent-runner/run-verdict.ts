import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { hostPattern, sdkBaseUrls, type SdkBaseUrl } from '../../../shared/sdk-base-urls/sdk-base-urls.js';
import { describeFinding } from '../run-report/client-report.js';
import { brokeARule, warningsOf, type ServeLogEntry } from '../serve/serve-log.js';
import { envStem } from '../serve/agent-env.js';
import type { RunResult, SessionResult } from './run-agent.js';

/** Why a session's agent failed, told apart so the user knows where to look. */
export type FailureKind =
  /** It exited after a mock refused one of its requests (the rule and the request are named). */
  | 'after-refusal'
  /** It never reached the mocks: its SDK reads another base-URL variable, or none. */
  | 'never-reached'
  /** Its client spoke a protocol the mocks do not: a path no mock serves, a body that is not JSON. */
  | 'protocol'
  /** It failed on its own (a crash, the timeout) after answers the mocks accepted. */
  | 'own';

export interface SessionFailure {
  session: SessionResult;
  kind: FailureKind;
  /** One line: what happened and what to do. */
  why: string;
}

export interface RunVerdict {
  code: 0 | 1 | 3;
  /** The one headline every output carries (stdout, the markdown report). */
  headline: string;
  /** Requests that broke a rule (a finding the mock refused on, or a non-2xx answer). */
  broken: ServeLogEntry[];
  /** Warnings, one line each: contested rules answered leniently, a run that replayed nothing. */
  warnings: string[];
  failures: SessionFailure[];
}

const request = (e: ServeLogEntry) => `#${e.seq} ${e.provider} ${e.method} ${e.path} -> ${e.status}`;

/** A refused request as one line: the rule (and rejection) of each finding the mock refused on. */
export function describeRefusal(e: ServeLogEntry): string {
  const refused = e.findings.filter((f) => !f.lenient);
  const rules = refused.map((f) => `${f.rule} (${f.rejection}): ${describeFinding(f)}`).join('; ');
  return `${request(e)}: ${rules || `answered ${e.status}`}`;
}

/** The SDKs whose default host the agent's output names: it called the real provider, not the mocks. */
function sdksNamedIn(output: string): SdkBaseUrl[] {
  return sdkBaseUrls().filter((row) => row.hosts.some((h) => hostPattern(h).test(output)));
}

function baseUrlHint(row: SdkBaseUrl, specs: readonly ProviderSpec[]): string {
  const provider = row.providers.find((p) => specs.some((s) => s.id === p)) ?? row.providers[0]!;
  const variable = `REASONING_REPLAY_${envStem(provider)}_BASE_URL`;
  const who = row.language === 'python' ? `${row.sdk} (Python)` : row.sdk;
  if (row.variable && row.pointsAt) return `${who} reads ${row.variable}, which run sets to the ${row.pointsAt} mock`;
  if (row.variable) return `${who} reads ${row.variable}: set it to $${variable}`;
  const how = row.inCode ? `: ${row.inCode.replaceAll('{var}', variable)}` : ` (${variable})`;
  return `${who} reads no base-URL variable; pass the base URL in code${how}`;
}

/** Why one failed session failed: the refusal it exited after, the protocol it spoke, or where its SDK went. */
export function explainFailure(session: SessionResult, specs: readonly ProviderSpec[]): SessionFailure {
  const exit = session.exit.failure ?? 'exited 0';
  const miss = session.misses[0];
  if (miss && (session.requests === 0 || session.exit.failure !== undefined)) {
    const more = session.misses.length > 1 ? ` (and ${session.misses.length - 1} more)` : '';
    return {
      session,
      kind: 'protocol',
      why: `the agent ${exit}; its client spoke a protocol the mocks do not: ${miss.method} ${miss.path}${more} was answered ${miss.status}: ${miss.message}`,
    };
  }
  if (session.requests === 0) {
    const named = sdksNamedIn(session.exit.output);
    const hint = named.length
      ? `its output names ${[...new Set(named.flatMap((r) => r.hosts.filter((h) => hostPattern(h).test(session.exit.output))))].join(', ')}: ${named.map((r) => baseUrlHint(r, specs)).join('; ')}`
      : `an SDK finds the mocks through its base-URL variable (${sdkBaseUrls()
          .filter((r) => r.variable && r.pointsAt)
          .map((r) => r.variable)
          .filter((v, i, all) => all.indexOf(v) === i)
          .join(', ')}, set by run) or, when it reads none, REASONING_REPLAY_<ID>_BASE_URL passed in code`;
    return {
      session,
      kind: 'never-reached',
      why: `the agent ${exit} and sent no request to any mock; ${hint} (docs/judge-your-agent.md)`,
    };
  }
  const last = session.entries.at(-1)!;
  if (brokeARule(last)) {
    return {
      session,
      kind: 'after-refusal',
      why: `the agent ${exit} after a mock refused it: ${describeRefusal(last)}`,
    };
  }
  return {
    session,
    kind: 'own',
    why: `the agent ${exit} on its own: its last request (${request(last)}) was accepted`,
  };
}

const KIND_WORDS: Record<FailureKind, string> = {
  'after-refusal': 'it exited after a mock refused it',
  'never-reached': 'it never reached the mocks',
  protocol: 'its client spoke a protocol the mocks do not',
  own: 'it failed on its own',
};

/** The warning of a run in which no request sent back reasoning (run-report.html lists it among the warnings). */
export const NO_REPLAY =
  'no request sent back an earlier answer’s reasoning: this run judged no replay (drive at least two user turns, each with a tool round; docs/judge-your-agent.md)';

/**
 * The run's one verdict: exit 1 when a request broke a rule (or, under `strict`, on any warning: a contested rule
 * answered leniently, a run that replayed nothing), else 3 when an agent failed or sent nothing, else 0; and the
 * reasons, each once.
 */
export function runVerdict(
  result: RunResult,
  options: { strict?: boolean; specs?: readonly ProviderSpec[] } = {},
): RunVerdict {
  const broken = result.entries.filter(brokeARule);
  const warnings = result.entries.flatMap((e) => warningsOf(e).map((f) => `${request(e)}: ${describeFinding(f)}`));
  if (result.entries.length > 0 && !result.entries.some((e) => e.replays)) warnings.push(NO_REPLAY);
  const failures = result.sessions
    .filter((s) => s.exit.failure !== undefined || s.requests === 0)
    .map((s) => explainFailure(s, options.specs ?? []));
  const counted = options.strict ? warnings.length : 0;
  const code = broken.length > 0 || counted > 0 ? 1 : failures.length > 0 ? 3 : 0;
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const headline =
    code === 1
      ? broken.length > 0
        ? `✗ ${n(broken.length, 'request')} broke a provider rule`
        : `✗ ${n(warnings.length, 'warning')}, counted as failures under --strict`
      : code === 3
        ? `✗ the agent failed (exit 3): ${[...new Set(failures.map((f) => KIND_WORDS[f.kind]))].join('; ')}`
        : warnings.length > 0
          ? `! the agent conformed, with ${n(warnings.length, 'warning')}`
          : '✓ the agent conformed';
  return { code, headline, broken, warnings, failures };
}
