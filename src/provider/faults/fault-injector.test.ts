/**
 * Each fault of specs/faults.json, injected into a real rendered answer of every family it names: the test fails when
 * the mock does not inject it as the data specifies (where the stream is cut, what the agent holds, the status and
 * headers, the foreign signatures, the fallback model), and when the same seed does not give the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { loadFaultCatalogue, type Fault } from '../../shared/faults/fault-catalogue.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { answerRenderers } from '../answers/answer-renderers.js';
import type { RenderedAnswer } from '../answers/answer-renderer.js';
import { carrierValues } from '../../shared/faults/carrier-values.js';
import { FaultInjector, foreignSignature, type FaultContext } from './fault-injector.js';
import { STREAM_READERS } from './stream-anatomy.js';
import { TOOL_RESULT_TURN } from './family-bodies.test-helper.js';

const catalogue = loadFaultCatalogue();
const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));

/** The provider each family is tried on, and the model (OpenRouter answers Claude's signed reasoning). */
const TRY_ON: Record<string, { spec: string; model?: string }> = {
  'anthropic-messages': { spec: 'anthropic' },
  'bedrock-converse': { spec: 'bedrock-claude' },
  gemini: { spec: 'gemini' },
  'openai-responses': { spec: 'openai-responses' },
  'openai-chat': { spec: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
};

const FIRST_TURN = { messages: [{ role: 'user', content: 'hi' }] };

/** A request replaying an answer's turn: its thinking twice (two consecutive blocks), a text block, then a user turn. */
function replaying(rendered: RenderedAnswer): unknown {
  const [signature] = carrierValues(rendered.body).signatures;
  const block = { type: 'thinking', thinking: 'x', signature };
  return {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [block, block, { type: 'text', text: 'ok' }, block] },
      { role: 'user', content: 'go on' },
    ],
  };
}

function render(family: string, spec: ProviderSpec, model: string | undefined): RenderedAnswer {
  return answerRenderers[family as FamilyId]!(
    {
      content: null,
      reasoning: 'The user wants the order status; the lookup tool has it, so call it with the order id.',
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{"id":"ORD-1"}' } }],
    },
    { spec, call: 0, scenario: 'faults-test', ...(model ? { model } : {}) },
  );
}

const cases = catalogue.faults.flatMap((fault) =>
  fault.families.map((family) => {
    const tryOn = TRY_ON[family]!;
    const spec = specs.get(fault.providers?.[0] ?? tryOn.spec)!;
    return { fault, family, spec, model: tryOn.model };
  }),
);

const ctxOf = (spec: ProviderSpec, family: string, body: unknown, stream = true): FaultContext => ({
  provider: spec.id,
  family: family as FamilyId,
  body,
  stream,
});

describe('every fault is injected as specs/faults.json says', () => {
  it('covers every family a fault names with a provider to try it on', () => {
    for (const { fault, family, spec } of cases) {
      expect(spec, `${fault.name} / ${family}`).toBeDefined();
      expect(spec.family, `${fault.name} / ${family}`).toBe(family);
    }
  });

  it.each(cases.map((c) => [`${c.fault.name} on ${c.spec.id}`, c] as const))(
    '%s',
    (_, { fault, family, spec, model }) => {
      const inject = fault.inject;
      const injector = new FaultInjector([fault], 7);
      if (inject.kind === 'http-error') {
        // Not on a fresh user turn; on the first tool-result turn; once.
        expect(injector.answerInstead(ctxOf(spec, family, FIRST_TURN))).toBeUndefined();
        const answer = injector.answerInstead(ctxOf(spec, family, TOOL_RESULT_TURN[family]))!;
        expect(answer.status).toBe(inject.status);
        expect(answer.headers).toEqual(inject.headers);
        expect(answer.body).toEqual(inject.bodies[family] ?? inject.bodies['*']);
        if (inject.headers['retry-after'])
          expect(answer.record.retryAfterMs).toBe(Number(inject.headers['retry-after']) * 1000);
        expect(injector.answerInstead(ctxOf(spec, family, TOOL_RESULT_TURN[family]))).toBeUndefined();
        expect(injector.pending()).toEqual([]);
        return;
      }
      const rendered = render(family, spec, model);
      // A dropped bound block needs a replayed one: the request carries the first answer's turn back.
      const asked = inject.kind === 'bound-block-dropped' ? replaying(rendered) : FIRST_TURN;
      if (inject.kind === 'bound-block-dropped')
        expect(
          injector.shape(ctxOf(spec, family, FIRST_TURN), rendered),
          'nothing replayed, nothing to drop',
        ).toBeUndefined();
      const shaped = injector.shape(ctxOf(spec, family, asked), rendered)!;
      expect(shaped, 'the fault found nothing to apply to in a signed tool-call answer').toBeDefined();
      expect(shaped.record.name).toBe(fault.name);
      expect(injector.shape(ctxOf(spec, family, asked), rendered), 'fires once').toBeUndefined();
      if (inject.kind === 'stream-cut') {
        const reader = STREAM_READERS[family as FamilyId]!;
        const whole = reader.read(rendered.stream);
        const kept = reader.read(shaped.rendered.stream);
        const roles = kept.map((a) => a.role);
        const wholeSignature = whole.find((a) => a.role === 'signature')?.signature;
        expect(shaped.cut).toBe(true);
        // How the stream ends: a clean end is said so (serve then ends the body instead of dropping the connection).
        expect(Boolean(shaped.endsCleanly)).toBe(inject.ends === 'clean-end');
        expect(shaped.record.where?.endsWith('; the body then ended cleanly') ?? false).toBe(
          inject.ends === 'clean-end',
        );
        expect(shaped.rendered.stream.length).toBeLessThan(rendered.stream.length + 1);
        expect(roles).not.toContain('tool-start');
        if (inject.at === 'before-signature') {
          expect(roles).not.toContain('signature');
          expect(roles.at(-1)).toBe('thinking');
          const text = kept
            .filter((a) => a.role === 'thinking')
            .map((a) => a.text)
            .join('');
          expect(shaped.record.unfinished).toContainEqual({ value: text, what: 'partial-thinking' });
        } else if (inject.at === 'mid-signature') {
          const truncated = shaped.record.unfinished.filter((u) => u.what === 'truncated-signature');
          expect(truncated.length).toBeGreaterThan(0);
          for (const { value } of truncated) {
            expect(wholeSignature!.startsWith(value) && value.length < wholeSignature!.length).toBe(true);
          }
          expect(roles).not.toContain('reasoning-end');
          if (family !== 'openai-responses') expect(kept.at(-1)!.signature).toBe(truncated[0]!.value);
          else expect(roles).not.toContain('signature');
        } else if (inject.at === 'after-signature') {
          expect(roles.at(-1)).toBe('signature');
          expect(kept.at(-1)!.signature).toBe(wholeSignature);
          expect(roles).not.toContain('reasoning-end');
          if (family === 'gemini') expect(shaped.rendered.stream.at(-1)!.data).not.toContain('finishReason');
        } else {
          const tool = whole.findIndex((a) => a.role === 'tool-start' || a.toolStart);
          expect(tool).toBeGreaterThan(0);
          expect(roles.some((r) => r === 'reasoning-end' || r === 'signature' || r === 'thinking')).toBe(true);
          expect(shaped.rendered.stream).toEqual(rendered.stream.slice(0, tool));
        }
      } else if (inject.kind === 'upstream-switch') {
        const own = carrierValues(rendered.body).signatures;
        const text = JSON.stringify(shaped.rendered);
        for (const s of own) expect(text).not.toContain(s);
        expect(shaped.record.foreign).toEqual([...new Set(own)].map(foreignSignature));
        for (const f of shaped.record.foreign) expect(text).toContain(f);
        expect(carrierValues(shaped.rendered.body).signatures.map((s) => s.length)).toEqual(own.map((s) => s.length));
      } else if (inject.kind === 'bound-block-dropped') {
        // Both thinking blocks of the replayed turn (consecutive), by path, as thinking_dropped; body and message_start.
        const signatures = carrierValues(rendered.body).signatures;
        expect(shaped.record.dropped).toEqual([signatures[0], signatures[0]]);
        const expected = [0, 1].map((at) => ({
          type: 'thinking_dropped',
          path: `messages.1.content.${at}`,
          reason: 'prefix_binding_mismatch',
        }));
        expect((shaped.rendered.body as Record<string, unknown>).input_transformations).toEqual(expected);
        const start = shaped.rendered.stream.find((e) => e.event === 'message_start')!;
        expect((JSON.parse(start.data) as { message: Record<string, unknown> }).message.input_transformations).toEqual(
          expected,
        );
        // Nothing else changed: the answer's own carriers are issued whole.
        expect(carrierValues(shaped.rendered.body).signatures).toEqual(signatures);
        expect(shaped.cut).toBe(false);
      } else {
        const models: string[] = [];
        const collect = (v: unknown): void => {
          if (Array.isArray(v)) v.forEach(collect);
          else if (v && typeof v === 'object')
            for (const [k, x] of Object.entries(v)) {
              if (k === 'model' && typeof x === 'string') models.push(x);
              else collect(x);
            }
        };
        collect(shaped.rendered.body);
        shaped.rendered.stream.forEach((e) => collect(JSON.parse(e.data)));
        expect(models.length).toBeGreaterThan(0);
        expect(new Set(models)).toEqual(new Set([inject.models[family as FamilyId]]));
        expect(shaped.record.model).toBe(inject.models[family as FamilyId]);
      }
    },
  );
});

describe('a fault is repeatable from its seed', () => {
  const cutMid = catalogue.faults.find((f) => f.name === 'messages-cut-mid-signature')!;
  const cutBefore = catalogue.faults.find((f) => f.name === 'messages-cut-before-signature')!;
  const spec = specs.get('anthropic')!;
  const rendered = render('anthropic-messages', spec, undefined);
  const run = (fault: Fault, seed: number) =>
    new FaultInjector([fault], seed).shape(ctxOf(spec, 'anthropic-messages', FIRST_TURN), rendered)!;

  it('the same seed gives the same bytes', () => {
    for (const seed of [0, 1, 42, 2 ** 31]) {
      expect(run(cutMid, seed)).toEqual(run(cutMid, seed));
      expect(run(cutBefore, seed)).toEqual(run(cutBefore, seed));
    }
  });

  it('other seeds cut elsewhere', () => {
    const splits = new Set(
      Array.from({ length: 20 }, (_, seed) => run(cutMid, seed).record.unfinished[0]!.value.length),
    );
    expect(splits.size).toBeGreaterThan(1);
  });
});

describe('a fault applies only where it can', () => {
  it('a stream cut leaves an unstreamed answer alone, and an answer without reasoning', () => {
    const fault = catalogue.faults.find((f) => f.name === 'messages-cut-mid-signature')!;
    const spec = specs.get('anthropic')!;
    const injector = new FaultInjector([fault]);
    expect(
      injector.shape(
        ctxOf(spec, 'anthropic-messages', FIRST_TURN, false),
        render('anthropic-messages', spec, undefined),
      ),
    ).toBeUndefined();
    const plain = answerRenderers['anthropic-messages']!({ content: 'hello' }, { spec, call: 0, scenario: 'x' });
    expect(injector.shape(ctxOf(spec, 'anthropic-messages', FIRST_TURN), plain)).toBeUndefined();
    expect(injector.pending()).toEqual([fault.name]);
  });

  it('a fault scoped to a provider leaves the family’s other providers alone', () => {
    const fault = catalogue.faults.find((f) => f.providers)!;
    const other = [...specs.values()].find((s) => s.family === fault.families[0] && !fault.providers!.includes(s.id))!;
    const injector = new FaultInjector([fault]);
    expect(
      injector.shape(ctxOf(other, other.family, FIRST_TURN), render(other.family, other, undefined)),
    ).toBeUndefined();
  });
});
