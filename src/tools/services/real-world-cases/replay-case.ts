import { SCENARIO_HEADER, type Finding } from '../../../shared/findings/finding.js';
import { readFindingsHeader } from '../../../shared/findings/findings-record.js';
import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { specUrl } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { isAccepted, type RealOutcome, type RealWorldCase } from './real-world-case.js';
import { resolvePlaceholders } from './resolve-placeholders.js';
import { answerRoutes } from '../../../provider/handlers/answer-routes.js';
import { mockExchange, wireHeaders, type MockExchange } from '../../../provider/handlers/mock-exchange.js';
import type { MockRoute } from '../../../provider/handlers/mock-route.js';
import { mockAnswerText } from '../../../provider/handlers/routes-transport.js';

/** What the mock answered, reduced to what a real outcome can be compared with. */
export type MockOutcome =
  /** `findings`: the warnings it accepted the request with (contested rules answered as their lenient side). */
  | { kind: 'accepted'; status: number; findings: Finding[] }
  | { kind: 'rejected'; status: number; text: string; findings: Finding[] }
  /** No mock handler claims the URL: the mock does not serve this model or path at all. */
  | { kind: 'unclaimed'; url: string }
  /** The harness itself failed (a 599 with findings: a rule named a rejection the spec lacks). */
  | { kind: 'harness-error'; text: string };

export interface CaseVerdict {
  agrees: boolean;
  /** One line: what differs (empty when the outcomes agree). */
  difference: string;
}

/** Every string in a JSON value, so a wording is found wherever the provider's envelope puts it. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isPlainObject(value)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

const PREFERRED_SCENARIO = 'plain-two-turn-chat';

/** The URL the client's SDK posted to: the spec's endpoint (or the case's own path) with the case's model. */
export function caseUrl(spec: ProviderSpec, c: RealWorldCase): string {
  if (!c.request.path) return specUrl(spec, c.model, c.request.stream === true);
  return new URL(spec.endpoint.baseUrl).origin + c.request.path.replaceAll('{model}', encodeURIComponent(c.model));
}

/**
 * What a case puts on the wire: its body (placeholders resolved) posted to its URL, with a scenario header so an
 * accepted request has a fixture to be answered from (any of the provider's scenarios will do).
 */
export function caseWire(c: RealWorldCase, spec: ProviderSpec, fixtures: FixtureStore) {
  const scenarios = fixtures.scenariosFor(spec.id);
  const scenario = scenarios.includes(PREFERRED_SCENARIO) ? PREFERRED_SCENARIO : scenarios[0];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (scenario) headers[SCENARIO_HEADER] = scenario;
  return { url: caseUrl(spec, c), headers, body: JSON.stringify(resolvePlaceholders(c.request.body)) };
}

/** The case as the exchange the mock routes answer in process (caseWire). */
export function caseExchange(c: RealWorldCase, spec: ProviderSpec, fixtures: FixtureStore): MockExchange {
  const wire = caseWire(c, spec, fixtures);
  return mockExchange('POST', wire.url, wire.headers, wire.body);
}

/**
 * Sends one case's request to the provider's mock routes in process (answerRoutes: no interception, no network) and
 * reads the answer. An accepted request needs some fixture to be answered from; any of the provider's scenarios will
 * do, and a missing one (599 without findings) still means the provider's judge let the request through.
 */
export async function replayCase(
  c: RealWorldCase,
  spec: ProviderSpec,
  routes: readonly MockRoute[],
  fixtures: FixtureStore,
): Promise<MockOutcome> {
  // (`routes` carry the answer policy: strict or lenient on contested rules.)
  const url = caseUrl(spec, c);
  const answer = await answerRoutes(routes, caseExchange(c, spec, fixtures));
  if (!answer) return { kind: 'unclaimed', url };
  const findings = readFindingsHeader(wireHeaders(answer.headers), `${spec.label}'s answer to real-world case ${c.id}`);
  const raw = mockAnswerText(answer);
  // A 599 whose findings are all lenient is an accepted request no fixture could answer in that shape.
  if (answer.status === 599)
    return findings.every((f) => f.lenient)
      ? { kind: 'accepted', status: 599, findings }
      : { kind: 'harness-error', text: raw };
  if (answer.status < 400) return { kind: 'accepted', status: answer.status, findings };
  let parsed: unknown = raw;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // a plain-text error body: its text is the wording
  }
  return { kind: 'rejected', status: answer.status, text: strings(parsed).join('\n'), findings };
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

export function describeMock(outcome: MockOutcome): string {
  switch (outcome.kind) {
    case 'accepted':
      return outcome.findings.length
        ? `accepted, warning on contested ${outcome.findings.map((f) => f.rejection).join(', ')}`
        : 'accepted';
    case 'unclaimed':
      return `no mock serves ${outcome.url}`;
    case 'harness-error':
      return `harness error ${squash(outcome.text).slice(0, 160)}`;
    case 'rejected':
      return `${outcome.status} "${squash(outcome.text).slice(0, 160)}"`;
  }
}

export function describeReal(outcome: RealOutcome): string {
  if (isAccepted(outcome)) return 'accepted';
  return outcome.wording === undefined
    ? `${outcome.status} (wording not quoted)`
    : `${outcome.status} "${outcome.wording}"`;
}

/**
 * Agreement: both accept, or both reject with the same status and the real wording inside the mock's answer (the
 * status alone where the source states the refusal without quoting its message).
 */
export function compareOutcomes(real: RealOutcome, mock: MockOutcome): CaseVerdict {
  const differs = (): CaseVerdict => ({
    agrees: false,
    difference: `real=${describeReal(real)}, mock=${describeMock(mock)}`,
  });
  if (isAccepted(real)) return mock.kind === 'accepted' ? { agrees: true, difference: '' } : differs();
  if (mock.kind !== 'rejected' || mock.status !== real.status) return differs();
  if (real.wording === undefined) return { agrees: true, difference: '' };
  return squash(mock.text).includes(squash(real.wording)) ? { agrees: true, difference: '' } : differs();
}
