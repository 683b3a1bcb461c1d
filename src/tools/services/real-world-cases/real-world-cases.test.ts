import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaValidator } from '../../../shared/validation/validate.js';
import {
  encryptedContentOrganization,
  organizationOf,
  pairedReasoningId,
} from '../../../provider/signing/openai-issued-items.js';
import { verifyMockThinkingSignature } from '../../../provider/signing/mock-signature.js';
import { specsDir } from '../../../shared/project-root.js';
import {
  agreementSummary,
  formatAgreement,
  formatClassAgreement,
  realWorldAgreement,
  realWorldReportSection,
} from './agreement.js';
import { KNOWN_DISAGREEMENTS } from './known-disagreements.js';
import { loadRealWorldCases, RULE_CLASSES } from './real-world-case.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { compareOutcomes } from './replay-case.js';
import { resolvePlaceholders } from './resolve-placeholders.js';

const cases = loadRealWorldCases();
const providerIds = readdirSync(join(specsDir(), 'providers'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('real-world case files', () => {
  it('all load and validate against specs/schema/real-world-case.schema.json, ids equal to file names', () => {
    // loadRealWorldCases throws an InputError naming the file and pointer on the first bad case.
    expect(cases.length).toBeGreaterThanOrEqual(80);
    expect(cases.filter((c) => 'accepted' in c.case.outcome).length).toBeGreaterThanOrEqual(20);
  });

  it('cover every provider spec, and name only providers that have one', () => {
    const covered = new Set(cases.map((c) => c.case.provider));
    expect(providerIds.filter((p) => !covered.has(p))).toEqual([]);
    expect([...covered].filter((p) => !providerIds.includes(p))).toEqual([]);
  });

  it('the schema refuses a contested case without the other side, and an outcome that is neither', () => {
    const validate = schemaValidator('real-world-case.schema.json');
    const base = {
      id: 'x',
      ruleClass: 'reasoning-echo',
      source: { url: 'https://example.com/1', kind: 'bug-report' },
      framework: 'f',
      provider: 'p',
      model: 'm',
      request: { body: {} },
    };
    expect(validate({ ...base, outcome: { accepted: true } })).toBe(true);
    expect(validate({ ...base, outcome: { accepted: true }, contested: true })).toBe(false);
    // A source that states the refusal without quoting it gives the status alone; a 2xx is no refusal.
    expect(validate({ ...base, outcome: { status: 400 } })).toBe(true);
    expect(validate({ ...base, outcome: { status: 200 } })).toBe(false);
    expect(validate({ ...base, outcome: { status: 400, wording: 'short' } })).toBe(false);
    expect(validate({ ...base, outcome: { accepted: true, status: 400, wording: 'something bad' } })).toBe(false);
  });
});

describe('the date each case was observed', () => {
  it('the schema takes a calendar day and refuses a time, a month alone or another spelling', () => {
    const validate = schemaValidator('real-world-case.schema.json');
    const base = cases[0]!.case;
    expect(validate({ ...base, date: '2026-09-12', dateBasis: 'published' })).toBe(true);
    for (const date of ['2026-09', '2026-9-12', '12/09/2026', '2026-09-12T10:00:00Z', ''])
      expect(validate({ ...base, date, dateBasis: 'published' })).toBe(false);
  });

  it('every dated case names a day that exists and has passed', () => {
    const bad = cases
      .map((c) => c.case)
      .filter((c) => c.date !== undefined)
      .filter((c) => {
        const day = new Date(`${c.date}T00:00:00Z`);
        return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== c.date || day > new Date();
      })
      .map((c) => `${c.id}: ${c.date}`);
    expect(bad).toEqual([]);
  });

  it('a day read off a page is a docs case, and a day a file was committed is pinned to a commit', () => {
    // Which basis fits which source: a thread's day is its post's, a commit's day needs the commit in the URL.
    const misfits = cases
      .map((c) => c.case)
      .filter(
        (c) =>
          ((c.dateBasis === 'read' || c.dateBasis === 'page-updated') && c.source.kind !== 'docs') ||
          (c.dateBasis === 'committed' &&
            !/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{7,40}\//.test(c.source.url)),
      )
      .map((c) => `${c.id}: ${c.dateBasis} ${c.source.kind} ${c.source.url}`);
    expect(misfits).toEqual([]);
  });
});

describe('the rule class of every case', () => {
  it('is one the schema names, and the schema refuses a case without one or with another', () => {
    const validate = schemaValidator('real-world-case.schema.json');
    for (const { case: c } of cases) expect(RULE_CLASSES).toContain(c.ruleClass);
    const { ruleClass: _dropped, ...unclassified } = cases[0]!.case;
    expect(validate(unclassified)).toBe(false);
    expect(validate({ ...cases[0]!.case, ruleClass: 'misc' })).toBe(false);
    expect(validate(cases[0]!.case)).toBe(true);
  });

  it('the TypeScript list and the schema enum name the same classes in the same order', () => {
    const schema = readJsonFile(join(specsDir(), 'schema', 'rule-class.schema.json')) as { enum: string[] };
    expect([...RULE_CLASSES]).toEqual(schema.enum);
  });
});

describe('the known-disagreement list', () => {
  it('names only cases that exist (a mistyped id would silence nothing and hide nothing)', () => {
    const ids = new Set(cases.map((c) => c.case.id));
    expect([...KNOWN_DISAGREEMENTS.keys()].filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('placeholders resolve through the mock signers', () => {
  it('a $mockSignature is the Claude signature of that text at that ordinal, nothing else', () => {
    const body = resolvePlaceholders({
      content: [{ type: 'thinking', thinking: 'abc', signature: { $mockSignature: { thinking: 'abc', ordinal: 1 } } }],
    }) as { content: Array<{ signature: string }> };
    expect(verifyMockThinkingSignature('abc', 1, body.content[0]!.signature)).toBe(true);
    expect(verifyMockThinkingSignature('abc', 0, body.content[0]!.signature)).toBe(false);
    expect(verifyMockThinkingSignature('abd', 1, body.content[0]!.signature)).toBe(false);
  });

  it("a $mockEncrypted is bound to its reasoning item and carries its issuer's organization", () => {
    const blob = resolvePlaceholders({ $mockEncrypted: { itemId: 'rs_1', seed: 's' } });
    expect(encryptedContentOrganization('rs_1', blob)).toBe(organizationOf('openai-responses'));
    expect(encryptedContentOrganization('rs_2', blob)).toBeUndefined();
    const viaKilo = resolvePlaceholders({ $mockEncrypted: { itemId: 'rs_1', seed: 's', issuer: 'kilo' } });
    expect(encryptedContentOrganization('rs_1', viaKilo)).toBe(organizationOf('kilo'));
  });

  it('a $mockItemId names the reasoning item it was issued after', () => {
    const id = resolvePlaceholders({ $mockItemId: { type: 'function_call', reasoningId: 'rs_0a1b', ordinal: 1 } });
    expect(pairedReasoningId('function_call', id)).toBe('rs_0a1b');
    expect(pairedReasoningId('message', id)).toBeUndefined();
    expect(() => resolvePlaceholders({ $mockItemId: { type: 'function_call', reasoningId: 'reasoning-1' } })).toThrow(
      /rs_<hex>/,
    );
  });

  it('an unknown placeholder is an error, not a silent literal', () => {
    expect(() => resolvePlaceholders({ $mockNope: { a: 1 } })).toThrow(/unknown placeholder/);
  });
});

describe('outcome comparison', () => {
  const rejected = (status: number, text: string) => ({ kind: 'rejected' as const, status, text, findings: [] });
  it('needs the same status and the real wording inside the mock answer', () => {
    expect(
      compareOutcomes(
        { status: 400, wording: 'must be passed back' },
        rejected(400, 'The x must be passed back to the API.'),
      ).agrees,
    ).toBe(true);
    expect(
      compareOutcomes({ status: 400, wording: 'must be passed back' }, rejected(422, 'must be passed back')).agrees,
    ).toBe(false);
    expect(
      compareOutcomes({ status: 400, wording: 'must be passed back' }, rejected(400, 'Field required')).agrees,
    ).toBe(false);
    expect(
      compareOutcomes({ status: 400, wording: 'x y z' }, { kind: 'accepted', status: 200, findings: [] }).agrees,
    ).toBe(false);
  });
  it('an accepted request agrees only with an accepted one', () => {
    expect(compareOutcomes({ accepted: true }, { kind: 'accepted', status: 200, findings: [] }).agrees).toBe(true);
    expect(compareOutcomes({ accepted: true }, rejected(400, 'no')).agrees).toBe(false);
    expect(compareOutcomes({ accepted: true }, { kind: 'unclaimed', url: 'https://x' }).agrees).toBe(false);
  });
});

describe('every real-world case replayed against the provider mocks', () => {
  it('answers as the real provider did (contested cases warn; known disagreements are listed)', async () => {
    const agreement = await realWorldAgreement({ cases });
    const lines = ['real-world cases: per-provider agreement with the mocks', formatAgreement(agreement)];
    const disagreeing = agreement.results.filter((r) => !r.agrees);
    const contested = disagreeing.filter((r) => r.contested);
    const known = disagreeing.filter((r) => !r.contested && KNOWN_DISAGREEMENTS.has(r.id));
    const fresh = disagreeing.filter((r) => !r.contested && !KNOWN_DISAGREEMENTS.has(r.id));
    const healed = [...KNOWN_DISAGREEMENTS.keys()].filter((id) =>
      agreement.results.some((r) => r.id === id && r.agrees),
    );
    if (contested.length)
      lines.push(
        '',
        `warnings: ${contested.length} contested case(s) the mock answers with the other reading:`,
        ...contested.map((r) => `  ${r.id} (contested by the ${r.contestedBy}): ${r.difference}`),
      );
    if (known.length)
      lines.push(
        '',
        `known disagreements (${known.length}, posted for the mock owners):`,
        ...known.map((r) => `  ${r.id}: ${r.difference}`),
      );
    if (healed.length)
      lines.push(
        '',
        `now agreeing, remove from known-disagreements.ts or known-disagreements-grown.ts: ${healed.join(', ')}`,
      );
    if (fresh.length)
      lines.push('', `NEW disagreements (${fresh.length}):`, ...fresh.map((r) => `  ${r.id}: ${r.difference}`));
    console.log(lines.join('\n'));
    expect(fresh.map((r) => `${r.id}: ${r.difference}`)).toEqual([]);
    // A listed case that agrees now would hide the next regression of the rule that healed it: its entry must go.
    expect(healed).toEqual([]);
    // A listed case that turned contested only warns: its entry would silence nothing, so it must go.
    expect(contested.filter((r) => KNOWN_DISAGREEMENTS.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});

describe('agreement summary', () => {
  it('counts agree, contested warnings and disagreements apart', async () => {
    const sample = cases.filter((c) =>
      ['deepseek-v4-tool-turn-with-reasoning-accepted-docs', 'mistral-medium-reasoning-content-litellm'].includes(
        c.case.id,
      ),
    );
    expect(sample).toHaveLength(2);
    const a = await realWorldAgreement({ cases: sample });
    expect(a.total.cases).toBe(2);
    expect(a.total.agree + a.total.disagree + a.total.contestedDisagree).toBe(2);
    const section = realWorldReportSection(a);
    expect(section.providers.map((p) => p.provider)).toEqual(['deepseek', 'mistral']);
    expect(section.disagreements).toHaveLength(a.total.disagree + a.total.contestedDisagree);
    expect(agreementSummary(a)).toMatch(
      /^real-world cases: 2 \(1 accepted, 1 rejected\): \d\/2 answered as the real provider did/,
    );
  });
});

describe('agreement per rule class', () => {
  it('counts every case once: the classes sum to the total, field by field', async () => {
    const sample = cases.filter((_, i) => i % 9 === 0);
    const a = await realWorldAgreement({ cases: sample });
    const classes = Object.values(a.byClass);
    expect(Object.keys(a.byClass)).toEqual([...RULE_CLASSES]);
    for (const field of ['cases', 'accepted', 'rejected', 'agree', 'disagree', 'contestedDisagree'] as const)
      expect(classes.reduce((n, c) => n + c[field], 0)).toBe(a.total[field]);
    expect(a.total.cases).toBe(sample.length);
    const section = realWorldReportSection(a);
    expect(section.ruleClasses?.map((r) => r.ruleClass)).toEqual([...RULE_CLASSES]);
    expect(formatClassAgreement(a)).toMatch(new RegExp(`^total +${a.total.agree}/${a.total.cases} +agree`, 'm'));
  });

  it('a case fires the spec rule its refusal names, and coverage counts only fired rules', async () => {
    const one = cases.filter((c) => c.case.id === 'anthropic-max-tokens-not-above-budget-nexus');
    const a = await realWorldAgreement({ cases: one });
    expect(a.results[0]!.fired).toEqual(['anthropic/max-tokens-not-above-budget']);
    expect(a.coverage.total.fired).toBe(1);
    expect(a.coverage.byProvider.anthropic!.fired).toBe(1);
    expect(a.coverage.byProvider.openai!.fired).toBe(0);
    expect(a.coverage.unfired).not.toContain('anthropic/max-tokens-not-above-budget');
    expect(a.coverage.unfired).toContain('anthropic/final-block-thinking');
  });
});

describe('a bad case file is named with its pointer', () => {
  it('reports the file, the JSON pointer and what is wrong', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'rw-'));
    try {
      const good = {
        id: 'a-case',
        ruleClass: 'request-schema',
        source: { url: 'https://example.com/1', kind: 'docs' },
        framework: 'f',
        provider: 'p',
        model: 'm',
        request: { body: {} },
        outcome: { accepted: true },
      };
      writeFileSync(
        join(dir, 'a-case.json'),
        JSON.stringify({ ...good, source: { url: 'http://insecure', kind: 'docs' } }),
      );
      expect(() => loadRealWorldCases(dir)).toThrow(/a-case\.json.*\/source\/url/s);
      writeFileSync(join(dir, 'a-case.json'), JSON.stringify({ ...good, id: 'other' }));
      expect(() => loadRealWorldCases(dir)).toThrow(/differs from the file name/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
