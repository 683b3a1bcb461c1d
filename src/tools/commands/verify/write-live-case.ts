import { join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { specUrl } from '../../../shared/provider-specs/provider-spec.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { assertValid } from '../../../shared/validation/validate.js';
import type { RealOutcome, RealWorldCase, RuleClass } from '../../services/real-world-cases/real-world-case.js';
import { SecretLeakError } from '../../../shared/errors/secret-leak-error.js';
import { redactSecretValues, redactText, type SecretValue } from '../../services/recorder/redact.js';
import { sweepForSecrets } from '../../services/recorder/secret-patterns.js';
import { lintMany, lintView } from '../../services/recorder/secret-rules.js';
import { CATEGORY_LABEL, type DriftCategory } from './classify.js';
import { squash } from './named-rule.js';

/** The longest a written wording gets: enough to name the rule, short enough to read in a diff. */
const MAX_WORDING = 400;

/**
 * The wording a case keeps of a live refusal: the sentence that says what was wrong, verbatim. It
 * is the error's `message` when the envelope has one, else the longest sentence-like string of
 * the body (MiMo puts its reason in `param`), else the raw text; cut to MAX_WORDING characters.
 */
export function liveWording(body: unknown, text: string): string {
  const error = isPlainObject(body) ? body.error : undefined;
  const direct = isPlainObject(error) && typeof error.message === 'string' ? error.message : undefined;
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isPlainObject(v)) Object.values(v).forEach(walk);
  };
  walk(body);
  const sentences = strings.filter((s) => s.includes(' ')).sort((a, b) => b.length - a.length);
  const pick = direct && direct.includes(' ') ? direct : (sentences[0] ?? text);
  return squash(pick).slice(0, MAX_WORDING);
}

export interface LiveCaseInput {
  /** The provider spec as loaded (its public endpoint is the case's source). */
  spec: ProviderSpec;
  model: string;
  upstream?: string;
  /** The request sent, in the corpus's form (placeholders for live blobs). */
  request: RealWorldCase['request'];
  live: { status: number; body: unknown; text: string };
  category: DriftCategory;
  /** The mock's answer, described. */
  mock: string;
  detail: string;
  endpointHost: string;
  derivedFrom:
    | { kind: 'case'; id: string; sourceUrl: string; ruleClass: RuleClass }
    | { kind: 'scenario'; id: string; call: number; attempt: number };
  setupCalls: number;
  date: Date;
  tool: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');

export function liveCaseId(input: Pick<LiveCaseInput, 'spec' | 'derivedFrom' | 'date'>): string {
  const from = input.derivedFrom;
  const stem =
    from.kind === 'case'
      ? from.id.replace(/-live-\d{8}$/, '')
      : `${input.spec.id}-${from.id}-call${from.call}${from.attempt > 1 ? '-retry' : ''}`;
  return `${stem}-live-${day(input.date)}`;
}

/** The case as it will be written, before redaction. */
export function buildLiveCase(input: LiveCaseInput, secrets: readonly SecretValue[]): RealWorldCase {
  const ok = input.live.status >= 200 && input.live.status < 300;
  const outcome: RealOutcome = ok
    ? { accepted: true }
    : { status: input.live.status, wording: redactText(liveWording(input.live.body, input.live.text), secrets) };
  const from = input.derivedFrom;
  const derivedFrom =
    from.kind === 'case'
      ? `real-world case ${from.id}`
      : `scenario ${from.id} call ${from.call}${from.attempt > 1 ? ' (fallback retry)' : ''}`;
  const when = input.date.toISOString();
  const notes = [
    `Recorded by verify --live on ${when.slice(0, 10)} against ${input.endpointHost} (model ${input.model}), sending the request of ${derivedFrom}.`,
    `The mock answered ${redactText(input.mock, secrets)}; the live provider ${ok ? 'accepted it' : 'refused it'} (${CATEGORY_LABEL[input.category]}: ${redactText(input.detail, secrets)}).`,
    ...(input.setupCalls > 0
      ? [
          `Its signed or encrypted blobs came from ${input.setupCalls} setup call(s) to the live provider and are written as the mock placeholders for the same content.`,
        ]
      : []),
  ].join(' ');
  return {
    id: liveCaseId(input),
    // A case re-recorded keeps its class; a scenario call replays a stored history's reasoning through the route
    // table, which is what reasoning-echo classes (the carrier sent back or left out).
    ruleClass: from.kind === 'case' ? from.ruleClass : 'reasoning-echo',
    source: {
      url: specUrl(input.spec, input.model, input.request.stream === true),
      kind: 'recorded-exchange',
      ...(from.kind === 'case' ? { also: [from.sourceUrl] } : {}),
    },
    framework: 'reasoning-replay verify --live',
    provider: input.spec.id,
    ...(input.upstream ? { upstream: input.upstream } : {}),
    model: input.model,
    request: input.request,
    outcome,
    // The live answer's own day: the exchange itself, not a post about it.
    date: when.slice(0, 10),
    dateBasis: 'recorded',
    notes,
    provenance: { kind: 'recorded', date: when, tool: input.tool, endpointHost: input.endpointHost, derivedFrom },
  };
}

/**
 * Writes one disagreement as a new real-world case under `<dir>/<id>.json`, ready to copy into
 * specs/real-world/: schema-checked, every known secret redacted in every spelling, then swept by
 * the recorder's patterns and secretlint's preset (a credential-shaped value left means nothing is
 * written), and written atomically. Returns the file name, or why it was not written.
 */
export async function writeLiveCase(
  input: LiveCaseInput,
  dir: string,
  secrets: readonly SecretValue[],
): Promise<{ file: string } | { refused: string }> {
  const built = redactSecretValues(buildLiveCase(input, secrets), secrets);
  const file = join(dir, `${built.id}.json`);
  const value = { $schema: '../schema/real-world-case.schema.json', ...built };
  try {
    assertValid<RealWorldCase>(value, 'real-world-case.schema.json', file);
  } catch (error) {
    if (error instanceof InputError) return { refused: `it would not be a valid case: ${error.problem}` };
    throw error;
  }
  const findings = [...sweepForSecrets(value), ...(await lintMany([{ text: lintView(value), where: '/' }]))];
  if (findings.length > 0) return { refused: new SecretLeakError(file, findings).message };
  ensureDir(dir);
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
  return { file: `${built.id}.json` };
}
