/**
 * For every fault of specs/faults.json and every damage it lists, a session whose next requests show that damage
 * must fail `recovers-from-faults` naming the fault and the request; the same session recovering as the fault's
 * `nextStep` says must pass. The faulted answers come from the mocks' own injector.
 */
import { describe, expect, it } from 'vitest';
import {
  loadFaultCatalogue,
  DEFAULT_MAX_RETRIES,
  type Fault,
  type FaultDamage,
} from '../../shared/faults/fault-catalogue.js';
import type { FaultExchange, IssuedCarriers } from '../../shared/faults/fault-record.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { answerRenderers } from '../../provider/answers/answer-renderers.js';
import { FaultInjector, issuedCarriers } from '../../provider/faults/fault-injector.js';
import { TOOL_RESULT_TURN } from '../../provider/faults/family-bodies.test-helper.js';
import { FaultRecoveryJudge, RECOVERS_FROM_FAULTS } from './fault-recovery-judge.js';

const catalogue = loadFaultCatalogue();
const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const ON: Record<string, { spec: string; model?: string }> = {
  'anthropic-messages': { spec: 'anthropic' },
  'bedrock-converse': { spec: 'bedrock-claude' },
  gemini: { spec: 'gemini' },
  'openai-responses': { spec: 'openai-responses' },
  'openai-chat': { spec: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
};

const thinking = (text: string | undefined, signature: string | undefined) => ({
  type: 'thinking',
  ...(text !== undefined ? { thinking: text } : {}),
  ...(signature !== undefined ? { signature } : {}),
});
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'lookup', input: {} });
const user = (text: string) => ({ role: 'user', content: text });
const result = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });

/** A session: a completed tool-call turn, then the request whose answer the fault changes. */
function setUp(fault: Fault, family: string) {
  const on = ON[family]!;
  const spec = specs.get(fault.providers?.[0] ?? on.spec)!;
  const render = (call: number, reasoning: string, id: string) =>
    answerRenderers[family as FamilyId]!(
      {
        content: null,
        reasoning,
        tool_calls: [{ id, type: 'function', function: { name: 'lookup', arguments: '{}' } }],
      },
      { spec, call, scenario: `judge-${fault.name}`, ...(on.model ? { model: on.model } : {}) },
    );
  const first = render(0, 'First: look the order up.', 'call_0');
  const firstIssued: IssuedCarriers = issuedCarriers(first);
  const sigs0 = firstIssued.signatures;
  const turn0 = {
    role: 'assistant',
    content: [...sigs0.map((s) => thinking('First: look the order up.', s)), toolUse('call_0')],
  };
  const faultedBody =
    fault.inject.kind === 'http-error'
      ? (TOOL_RESULT_TURN[family] as { messages: unknown[] })
      : { messages: [user('where is ORD-1?'), turn0, result('call_0'), user('and ORD-2?')] };
  const injector = new FaultInjector([fault], 3);
  const ctx = { provider: spec.id, family: family as FamilyId, body: faultedBody, stream: true };
  const instead = injector.answerInstead(ctx);
  const second = render(1, 'Second: the order needs its carrier looked up too.', 'call_1');
  const shaped = instead ? undefined : injector.shape(ctx, second);
  const record = instead?.record ?? shaped?.record;
  expect(record, `${fault.name} was not injected`).toBeDefined();
  const t0 = 1_000_000;
  return { spec, turn0, sigs0, faultedBody, record: record!, shaped, t0, status: instead?.status ?? 200 };
}

/** The next requests of an agent that shows `damage` after `fault`. */
function damaged(fault: Fault, family: string, damage: FaultDamage): FaultExchange[] {
  const s = setUp(fault, family);
  const base = { session: 's', provider: s.spec.id, status: 200 };
  const next = (seq: number, body: unknown, extra: Partial<FaultExchange> = {}): FaultExchange => ({
    ...base,
    seq,
    atMs: s.t0 + 5000 + seq,
    body,
    ...extra,
  });
  const head = [user('where is ORD-1?'), s.turn0, result('call_0'), user('and ORD-2?')];
  const withBlock = (block: unknown) => ({
    messages: [...head, { role: 'assistant', content: [block] }, user('go on')],
  });
  const unfinished = (what: string) => s.record.unfinished.find((u) => u.what === what)?.value;
  const exchanges = setUpExchanges(s);
  switch (damage) {
    case 'truncated-signature': {
      const v = unfinished('truncated-signature') ?? unfinished('unfinished-signature');
      if (!v) return [];
      return [...exchanges, next(3, withBlock(thinking('partial', v)))];
    }
    case 'partial-thinking': {
      const text = unfinished('partial-thinking');
      const sig = unfinished('unfinished-signature');
      if (text) return [...exchanges, next(3, withBlock(thinking(text, undefined)))];
      if (sig) return [...exchanges, next(3, withBlock(thinking('x', sig)))];
      return [];
    }
    case 'empty-signature':
      return [...exchanges, next(3, withBlock(thinking(unfinished('partial-thinking') ?? 'x', '')))];
    case 'retry-loop': {
      const bound = fault.maxRetries ?? DEFAULT_MAX_RETRIES;
      return [...exchanges, ...Array.from({ length: bound + 1 }, (_, i) => next(3 + i, s.faultedBody))];
    }
    case 'early-retry':
      return [...exchanges, { ...next(3, s.faultedBody), atMs: s.t0 + 20 }];
    case 'foreign-signature':
    case 'same-history-resubmitted': {
      const foreign = s.record.foreign[0]!;
      const body = withBlock(thinking('Second', foreign));
      const other = { messages: [...body.messages, user('again')] };
      return [
        ...exchanges,
        next(3, body, { status: 400 }),
        next(4, damage === 'same-history-resubmitted' ? body : other, { status: 400 }),
      ];
    }
    case 'dropped-carrier': {
      const fb = s.shaped ? issuedCarriers(s.shaped.rendered) : undefined;
      // The fallback turn replayed by its tool call, its signature dropped.
      const id = fb?.callIds[0] ?? 'call_0';
      return [
        ...exchanges,
        next(3, { messages: [...head, { role: 'assistant', content: [toolUse(id)] }, result(id)] }),
      ];
    }
    case 'dropped-block-resent': {
      // The turn the provider reported dropping is replayed with its thinking all the same.
      const fb = issuedCarriers(s.shaped!.rendered);
      const answered = {
        role: 'assistant',
        content: [thinking(fb.texts[0], fb.signatures[0]), toolUse(fb.callIds[0]!)],
      };
      return [...exchanges, next(3, { messages: [...head, answered, result(fb.callIds[0]!)] })];
    }
    case 'orphan-reasoning':
      return [];
    case 'no-recovery': {
      // An error status never resent, or a switch's refusal after which nothing got through.
      if (fault.inject.kind === 'http-error') return exchanges;
      const body = withBlock(thinking('Second', s.record.foreign[0]!));
      return [...exchanges, next(3, body, { status: 400 })];
    }
  }
}
const setUpExchanges = (s: ReturnType<typeof setUp>): FaultExchange[] => {
  const issued = s.shaped && !s.shaped.cut ? { issued: issuedCarriers(s.shaped.rendered) } : {};
  return [
    {
      seq: 1,
      atMs: s.t0,
      session: 's',
      provider: s.spec.id,
      status: 200,
      body: { messages: [user('where is ORD-1?')] },
      issued: { signatures: s.sigs0, callIds: ['call_0'], texts: [] },
    },
    {
      seq: 2,
      atMs: s.t0 + 10,
      session: 's',
      provider: s.spec.id,
      status: s.status,
      body: s.faultedBody,
      fault: s.record,
      ...issued,
    },
  ];
};

/** The next requests of an agent that recovers as the fault's nextStep says. */
function recovered(fault: Fault, family: string): FaultExchange[] {
  const s = setUp(fault, family);
  const exchanges = setUpExchanges(s);
  const base = { session: 's', provider: s.spec.id, status: 200 };
  const after = s.t0 + 10 + (s.record.retryAfterMs ?? 0) + 100;
  const fb = s.shaped && !s.shaped.cut ? issuedCarriers(s.shaped.rendered) : undefined;
  const kept =
    (fault.inject.kind === 'model-fallback' || fault.inject.kind === 'bound-block-dropped') && fb
      ? [
          {
            role: 'assistant',
            content: [...fb.signatures.map((sig) => thinking(fb.texts[0], sig)), toolUse(fb.callIds[0]!)],
          },
          result(fb.callIds[0]!),
        ]
      : [];
  if (fault.inject.kind === 'upstream-switch') {
    const foreign = s.record.foreign[0]!;
    const poisoned = {
      messages: [
        ...((s.faultedBody as { messages?: unknown[] }).messages ?? []),
        { role: 'assistant', content: [thinking('Second', foreign)] },
        user('go on'),
      ],
    };
    // Refused once (the fault's own consequence), then the unverifiable block dropped and retried once.
    const stripped = {
      messages: [
        ...((s.faultedBody as { messages?: unknown[] }).messages ?? []),
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        user('go on'),
      ],
    };
    return [
      ...exchanges,
      { ...base, seq: 3, atMs: after, body: poisoned, status: 400 },
      { ...base, seq: 4, atMs: after + 1, body: stripped },
    ];
  }
  if (fault.inject.kind === 'bound-block-dropped') {
    // The reported block leaves the history (its turn keeps its tool call); the new turn keeps its carriers.
    const messages = ((s.faultedBody as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []).map(
      (m) =>
        Array.isArray(m.content)
          ? { ...m, content: (m.content as Array<{ type: string }>).filter((b) => b.type !== 'thinking') }
          : m,
    );
    return [...exchanges, { ...base, seq: 3, atMs: after, body: { messages: [...messages, ...kept, user('thanks')] } }];
  }
  return [
    ...exchanges,
    // A bounded resend of the untouched request, then the conversation goes on with every completed turn's carriers.
    { ...base, seq: 3, atMs: after, body: s.faultedBody },
    {
      ...base,
      seq: 4,
      atMs: after + 1,
      body: { messages: [...((s.faultedBody as { messages?: unknown[] }).messages ?? []), ...kept, user('thanks')] },
    },
  ];
}

const run = (exchanges: FaultExchange[]) => {
  const judge = new FaultRecoveryJudge(catalogue);
  const findings = exchanges.flatMap((x) => judge.observe(x).findings.map((f) => ({ seq: x.seq, f })));
  return { findings, verdicts: judge.verdicts() };
};

const cases = catalogue.faults.flatMap((fault) => fault.families.map((family) => ({ fault, family })));

describe('the judge of what comes after a fault', () => {
  it.each(cases.map((c) => [`${c.fault.name} on ${c.family}: a recovering agent passes`, c] as const))(
    '%s',
    (_, { fault, family }) => {
      const { findings, verdicts } = run(recovered(fault, family));
      expect(findings.map((f) => f.f.detail)).toEqual([]);
      expect(verdicts).toMatchObject([{ fault: fault.name, status: 'pass', injectedAt: 2 }]);
    },
  );

  const damageCases = cases.flatMap(({ fault, family }) => fault.damage.map((damage) => ({ fault, family, damage })));
  it.each(damageCases.map((c) => [`${c.fault.name} on ${c.family}: ${c.damage} fails`, c] as const))(
    '%s',
    (_, { fault, family, damage }) => {
      const exchanges = damaged(fault, family, damage);
      expect(exchanges.length, `no way to show ${damage} after ${fault.name}`).toBeGreaterThan(0);
      const { findings, verdicts } = run(exchanges);
      if (damage === 'no-recovery') {
        // No request shows a session left stuck: the fault's verdict does.
        expect(verdicts[0]).toMatchObject({ status: 'fail', damage: { what: 'no-recovery' } });
        expect(verdicts[0]!.damage!.detail).toContain(fault.nextStep);
        return;
      }
      const hit = findings.find((f) => f.f.params.damage === damage);
      expect(hit, `the judge missed ${damage}: ${findings.map((f) => f.f.detail).join(' | ')}`).toBeDefined();
      expect(hit!.f.rule).toBe(RECOVERS_FROM_FAULTS);
      expect(hit!.f.detail).toContain(fault.name);
      expect(hit!.f.detail).toContain(`request #${hit!.seq}`);
      expect(hit!.f.detail).toContain(fault.nextStep);
      expect(verdicts[0]!.status).toBe('fail');
      expect(verdicts[0]!.damage!.seq).toBeGreaterThan(2);
    },
  );
});
