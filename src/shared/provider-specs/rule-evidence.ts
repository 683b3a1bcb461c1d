import type { ProviderSpec, Rejection } from './provider-spec.js';

/**
 * Where a rule of a provider spec comes from:
 * - definition: the provider's published API definition (request schema members, `request.schemaSource`);
 * - recording: a captured exchange (a test fixture of a public project);
 * - report: a public bug report, pull request or forum thread;
 * - code: a public project's source (an SDK that shows what it sends or reads);
 * - docs: the provider's documentation and everything else.
 */
export type EvidenceKind = 'definition' | 'recording' | 'report' | 'code' | 'docs';
export const EVIDENCE_KINDS: readonly EvidenceKind[] = ['definition', 'recording', 'report', 'code', 'docs'];

const REPORT = [
  /^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull|discussions)\//,
  /^https:\/\/(community\.openai\.com|stackoverflow\.com|www\.reddit\.com|news\.ycombinator\.com|discuss\.|forum\.)/,
];
const RECORDING = [/\/__fixtures__\//, /\/(cassettes|recordings|fixtures)\//];

/** The kind of one source URL. */
export function evidenceKind(url: string): Exclude<EvidenceKind, 'definition'> {
  if (RECORDING.some((r) => r.test(url))) return 'recording';
  if (REPORT.some((r) => r.test(url))) return 'report';
  if (/^https:\/\/github\.com\/[^/]+\/[^/]+\/(blob|tree)\//.test(url)) return 'code';
  return 'docs';
}

/** A rule backed by several sources counts as its strongest: a recording, then a report, code, docs. */
function strongest(urls: readonly string[]): Exclude<EvidenceKind, 'definition'> {
  const kinds = urls.map(evidenceKind);
  return (['recording', 'report', 'code', 'docs'] as const).find((k) => kinds.includes(k)) ?? 'docs';
}

export interface RuleEvidence {
  /** JSON pointer of the rule in the spec (a schema member is named by its def and member). */
  rule: string;
  kind: EvidenceKind;
}

/** Members a definition-built schema declares, by def: each is one rule the definition gives. */
function definitionMembers(schema: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'properties' && value && typeof value === 'object')
        for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
          const fromOverlay = String((member as Record<string, unknown>)?.['x-source'] ?? '').startsWith('overlay:');
          if (!fromOverlay) out.push(`${at}/properties/${name}`);
          walk(member, `${at}/properties/${name}`);
        }
      else walk(value, `${at}/${key}`);
    }
  };
  walk(schema, '/request/schema');
  return out;
}

/**
 * Every rule of a spec with the kind of evidence behind it: schema members from its definition,
 * overlays and closure by their evidence, and each rejection, echo, forbid, message rule,
 * parameter and ignored field by its sources. What the spec lint reports per provider.
 */
export function ruleEvidence(spec: ProviderSpec): RuleEvidence[] {
  const rules: RuleEvidence[] = [];
  const source = spec.request.schemaSource as
    { closed?: { evidence: string[] }; overlays?: Array<{ id: string; evidence: string[] }> } | undefined;
  if (source) {
    for (const rule of definitionMembers(spec.request.schema)) rules.push({ rule, kind: 'definition' });
    if (source.closed) rules.push({ rule: '/request/schemaSource/closed', kind: strongest(source.closed.evidence) });
    for (const o of source.overlays ?? [])
      rules.push({ rule: `/request/schemaSource/overlays/${o.id}`, kind: strongest(o.evidence) });
  } else rules.push({ rule: '/request/schema', kind: strongest(spec.sources) });
  const fromRejection = (pointer: string, id: string, pool: Record<string, Rejection> = spec.rejections) => {
    const r = pool[id] ?? spec.rejections[id];
    if (r) rules.push({ rule: pointer, kind: strongest(r.sources) });
  };
  for (const [id, r] of Object.entries(spec.rejections))
    rules.push({ rule: `/rejections/${id}`, kind: strongest(r.sources) });
  spec.echo.forEach((e, i) => {
    if (e.source) rules.push({ rule: `/echo/${i}`, kind: strongest([e.source]) });
  });
  (spec.forbid ?? []).forEach((f, i) => fromRejection(`/forbid/${i}`, f.rejection));
  (spec.messageRules ?? []).forEach((m, i) => fromRejection(`/messageRules/${i}`, m.rejection));
  for (const [key, p] of Object.entries(spec.parameters ?? {}))
    rules.push({ rule: `/parameters/${key}`, kind: strongest([p.source]) });
  (spec.ignores ?? []).forEach((g, i) => rules.push({ rule: `/ignores/${i}`, kind: strongest([g.source]) }));
  (spec.models?.variants ?? []).forEach((v, i) => {
    for (const [id, r] of Object.entries(v.rejections ?? {}))
      rules.push({ rule: `/models/variants/${i}/rejections/${id}`, kind: strongest(r.sources) });
  });
  return rules;
}

/** How many rules of each kind a spec has. */
export function evidenceCounts(spec: ProviderSpec): Record<EvidenceKind, number> {
  const counts = Object.fromEntries(EVIDENCE_KINDS.map((k) => [k, 0])) as Record<EvidenceKind, number>;
  for (const r of ruleEvidence(spec)) counts[r.kind]++;
  return counts;
}
