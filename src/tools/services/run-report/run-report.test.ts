import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/findings/finding.js';
import { findingFix } from './finding-fix.js';
import { runReport } from './run-report.js';
import { deepseekBody, deepseekEntry, entry, spec, specs } from './run-report.test-helper.js';

const badSignature: Finding = {
  rule: 'signatures-verbatim',
  rejection: 'invalid-signature',
  params: { index: 1, block: 0 },
  detail: 'assistant message 1 block 0: the thinking signature is not the one issued',
};

/** A run over two providers: DeepSeek refused twice for the same rule and once bent (contested), Claude once. */
function sampleEntries() {
  return [
    deepseekEntry(1, deepseekBody({ reasoning: true })),
    deepseekEntry(2, deepseekBody({ reasoning: false })),
    entry(3, 'anthropic', 400, [badSignature], undefined),
    // The final plain answer without reasoning_content: a contested rule, answered leniently (200, a warning).
    deepseekEntry(4, deepseekBody({ reasoning: true, plainAnswer: true })),
    deepseekEntry(5, deepseekBody({ reasoning: false, plainAnswer: true })),
  ];
}

describe('runReport: the run as a person reads it', () => {
  it('failures come first, one line per rule x provider, however many requests broke it', () => {
    const r = runReport(sampleEntries(), specs);
    expect(r.verdict).toBe('fail');
    expect(r.failures.map((l) => [l.provider, l.rule, l.requests])).toEqual([
      ['anthropic', 'signatures-verbatim', [3]],
      ['deepseek', 'must-echo', [2, 5]],
    ]);
    expect(r.failures.every((l) => l.status === 'fail')).toBe(true);
  });

  it('a contested rule answered leniently is a warning, never a failure line', () => {
    const r = runReport(sampleEntries(), specs);
    expect(r.warnings.map((l) => [l.provider, l.rule, l.requests, l.status])).toEqual([
      ['deepseek', 'must-echo', [4, 5], 'warn'],
    ]);
    expect(r.warnings[0]!.detail).toMatch(/contested rule reasoning-content-not-passed-back, accepted/);
    // Its fix is the contested rule's (the current turn), not the undisputed one's sharing its rejection.
    expect(r.warnings[0]!.fix.fix).toMatch(/^send back reasoning_content on the current turn’s assistant messages/);
    expect(r.failures[1]!.fix.fix).toMatch(/^send back reasoning_content on every assistant turn that called a tool/);
    // Both sides' sources travel with the warning.
    expect(r.warnings[0]!.fix.sources).toEqual(expect.arrayContaining(spec('deepseek').echo[1]!.contested!.sources));
    const onlyContested = runReport([deepseekEntry(1, deepseekBody({ reasoning: true, plainAnswer: true }))], specs);
    expect(onlyContested.verdict).toBe('warn');
    expect(onlyContested.failures).toEqual([]);
    expect(onlyContested.requests[0]!.verdict).toBe('warn');
  });

  it('the fix comes from the provider spec: the carrier its echo rule wants, its wording and its source', () => {
    const [claude, deepseek] = runReport(sampleEntries(), specs).failures;
    const rule = spec('deepseek').echo[0]!;
    // V4 Flash takes an empty string (the spec's own rule); a rule that refuses one says so in its fix.
    expect(deepseek!.fix.fix).toBe(
      `send back ${rule.field} on every assistant turn that called a tool, exactly as the answer issued it`,
    );
    const strictEcho = { ...spec('deepseek'), echo: [{ ...rule, allowEmpty: false }] };
    const missing: Finding = {
      rule: 'must-echo',
      rejection: rule.rejection!,
      params: { index: 1, field: rule.field },
      detail: 'assistant message 1 (tool call) has no reasoning_content (empty string)',
    };
    expect(findingFix(missing, strictEcho, specs).fix).toMatch(/issued it, and not empty$/);
    expect(deepseek!.fix.sources[0]).toBe(rule.source);
    expect(deepseek!.fix.providerSays).toContain('must be passed back');
    // A refusal kind's fix, with the provider's wording filled from the finding's params.
    expect(claude!.fix.fix).toMatch(/byte for byte as issued, signatures included/);
    expect(claude!.fix.providerSays).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    expect(claude!.fix.sources).toEqual(spec('anthropic').rejections['invalid-signature']!.sources);
  });

  it('a refusal no finding explains is held against provider-accepts', () => {
    const r = runReport([entry(1, 'deepseek', 413, [])], specs);
    expect(r.failures.map((l) => [l.provider, l.rule, l.detail])).toEqual([
      ['deepseek', 'provider-accepts', 'the mock answered 413 with no rule finding'],
    ]);
  });

  it('each request keeps its place in the log (seq restarts per session), its findings and its carrier diff', () => {
    const entries = [
      deepseekEntry(1, deepseekBody({ reasoning: true }), { runId: 'rr-a' }),
      deepseekEntry(1, deepseekBody({ reasoning: false }), { runId: 'rr-b' }),
      entry(2, 'deepseek', 200, []),
    ];
    const r = runReport(entries, specs);
    expect(r.requests.map((q) => [q.n, q.seq, q.verdict])).toEqual([
      [1, 1, 'pass'],
      [2, 1, 'fail'],
      [3, 2, 'pass'],
    ]);
    expect(r.failures[0]!.requests).toEqual([2]);
    expect(r.requests[1]!.diff!.turns[0]!.status).toBe('refused');
    expect(r.requests[2]!.diff).toBeNull();
    expect(r.runIds).toEqual(['rr-a', 'rr-b', 'rr-test']);
  });

  it('the caller’s notes and headline: an agent failure fails the run, a note alone warns', () => {
    const clean = [deepseekEntry(1, deepseekBody({ reasoning: true }))];
    expect(runReport(clean, specs).verdict).toBe('pass');
    expect(runReport(clean, specs, { notes: [{ status: 'warn', text: 'no replay' }] }).verdict).toBe('warn');
    const failed = runReport(clean, specs, { headline: '✗ the agent failed', notes: [{ status: 'fail', text: 'x' }] });
    expect([failed.verdict, failed.headline]).toEqual(['fail', '✗ the agent failed']);
  });
});
