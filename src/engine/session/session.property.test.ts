import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compress } from '../compaction/compress.js';
import { estimateTokens } from '../compaction/estimate-tokens.js';
import type { Message, StandardCarrierField } from '../../shared/history/history.js';
import { replayForRoute } from '../replay/replay-for-route.js';
import { isToolCallTurn } from '../policy/select-carriers.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { aProviderThatReads, wireCarrierFields } from '../../../test/helpers/fake-transport.test-helper.js';
import {
  aHistory,
  anAssistantTurnWithCarriers,
  anExchange,
  aRoutePolicy,
  aSetOfFieldsTheProviderReads,
  aToolCallStep,
  PROPERTY_RUNS,
  PROPERTY_TIMEOUT_MS,
  withToolIds,
} from '../../../test/helpers/history-arbitraries.test-helper.js';
import { carrierDifference, messageDifference } from '../../judge/retention/retention-checks.js';
import { sendSessionTurn } from './send-session-turn.js';
import { SessionStore } from './session-store.js';

type Operation =
  | { kind: 'append turn'; exchange: Message[] }
  | { kind: 'compact'; fraction: number }
  | { kind: 'branch'; fraction: number }
  | { kind: 'resume from state.db' }
  | { kind: 'switch route'; policy: RoutePolicy }
  | { kind: 'switch session'; pick: number }
  | { kind: 'send with a provider that reads'; reads: StandardCarrierField[]; answer: Message[] };

const anAnswer = fc.oneof(
  anAssistantTurnWithCarriers.map((m) => [m]),
  aToolCallStep,
);

const anOperation: fc.Arbitrary<Operation> = fc.oneof(
  anExchange.map((exchange) => ({ kind: 'append turn' as const, exchange })),
  fc.double({ min: 0.05, max: 1, noNaN: true }).map((fraction) => ({ kind: 'compact' as const, fraction })),
  fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => ({ kind: 'branch' as const, fraction })),
  fc.constant({ kind: 'resume from state.db' as const }),
  aRoutePolicy.map((policy) => ({ kind: 'switch route' as const, policy })),
  fc.nat().map((pick) => ({ kind: 'switch session' as const, pick })),
  fc
    .tuple(aSetOfFieldsTheProviderReads, anAnswer)
    .map(([reads, answer]) => ({ kind: 'send with a provider that reads' as const, reads, answer })),
);

/** What the model expects of one stored message: the carriers it was created with, and its current form. */
interface Entry {
  original: Message;
  expected: Message;
}

const entriesOf = (messages: readonly Message[]): Entry[] =>
  messages.map((m) => ({ original: structuredClone(m), expected: m }));

describe('sessions under any sequence of operations (property)', () => {
  test(
    'every retained carrier stays byte-identical; fallback <= 2 requests per turn; must-echo never loses reasoning_content; routes get only fields they read',
    () =>
      fc.assert(
        fc.asyncProperty(
          aHistory,
          aRoutePolicy,
          fc.array(anOperation, { maxLength: 10 }),
          async (initial, firstPolicy, operations) => {
            const dir = mkdtempSync(join(tmpdir(), 'rr-prop-'));
            const file = join(dir, 'state.db');
            let store = SessionStore.open(file, { scratch: true });
            try {
              const model = new Map<number, Entry[]>();
              let current = store.importHistory(initial);
              model.set(current, entriesOf(initial.messages));
              let policy = firstPolicy;
              let step = 0;

              const checkSession = (id: number) => {
                const resumed = store.resume(id).history.messages;
                const entries = model.get(id)!;
                expect(resumed).toHaveLength(entries.length);
                entries.forEach((e, i) => {
                  expect(carrierDifference(e.original, resumed[i]!), `session ${id} message ${i}`).toBeNull();
                  // JSON, not toEqual: -0 in a generated value stores as 0, exactly as it goes on the wire.
                  expect(messageDifference(e.expected, resumed[i]!), `session ${id} message ${i}`).toBeNull();
                });
              };

              for (const op of operations) {
                step += 1;
                const entries = model.get(current)!;
                switch (op.kind) {
                  case 'append turn': {
                    const exchange = withToolIds(op.exchange, `s${step}`);
                    store.appendExchange(current, exchange);
                    entries.push(...entriesOf(exchange));
                    break;
                  }
                  case 'compact': {
                    const history = store.resume(current).history;
                    const budget = Math.max(1, Math.floor(estimateTokens(history, { policy }) * op.fraction));
                    const result = compress(history, budget, { policy });
                    if (!result.changed) break;
                    const child = store.saveCompacted(current, result.history);
                    model.set(
                      child,
                      result.kept.map((from, j) =>
                        from === null
                          ? {
                              original: structuredClone(result.history.messages[j]!),
                              expected: result.history.messages[j]!,
                            }
                          : { original: entries[from]!.original, expected: result.history.messages[j]! },
                      ),
                    );
                    current = child;
                    break;
                  }
                  case 'branch': {
                    const at = Math.floor(op.fraction * entries.length);
                    const child = store.branch(current, at);
                    model.set(child, entries.slice(0, at));
                    current = child;
                    break;
                  }
                  case 'resume from state.db':
                    store.close();
                    store = SessionStore.open(file, { scratch: true });
                    break;
                  case 'switch route':
                    policy = op.policy;
                    break;
                  case 'switch session': {
                    const ids = [...model.keys()];
                    current = ids[op.pick % ids.length]!;
                    break;
                  }
                  case 'send with a provider that reads': {
                    const resumed = store.resume(current);
                    const alreadyRefused = new Set(resumed.verdicts.fieldsFor(policy.target));
                    const provider = aProviderThatReads(op.reads);
                    const answer = withToolIds(op.answer, `s${step}`);
                    const result = await sendSessionTurn({
                      store,
                      sessionId: current,
                      policy,
                      transport: provider.transport,
                      readAnswer: () => answer,
                    });

                    expect(provider.requests.length).toBeLessThanOrEqual(2);
                    // The resumed session sends what the live one would have sent.
                    const live = replayForRoute({ messages: entries.map((e) => e.expected) }, policy, {
                      omit: alreadyRefused,
                    });
                    expect(JSON.stringify(provider.requests[0])).toBe(JSON.stringify(live));
                    for (const request of provider.requests) {
                      for (const field of wireCarrierFields(request)) {
                        expect(policy.fields).toContain(field);
                        if (!(field === 'reasoning_content' && policy.tier === 'must-echo'))
                          expect(alreadyRefused.has(field)).toBe(false);
                      }
                      if (policy.tier === 'must-echo' && policy.family === 'openai-chat') {
                        const wire = request.body.messages as Record<string, unknown>[];
                        resumed.history.messages.forEach((m, i) => {
                          if (isToolCallTurn(m)) expect(typeof wire[i]!.reasoning_content).toBe('string');
                        });
                      }
                    }
                    if (result.appended) entries.push(...entriesOf(answer));
                    expect(result.appended !== undefined).toBe(result.response.status === 200);
                    // Verdicts are in the session's model config: a resume remembers them.
                    const remembered = store.resume(current).verdicts.fieldsFor(policy.target);
                    for (const f of result.recorded) expect(remembered.has(f)).toBe(true);
                    break;
                  }
                }
                checkSession(current);
              }
              for (const id of model.keys()) checkSession(id);
            } finally {
              store.close();
              rmSync(dir, { recursive: true, force: true });
            }
          },
        ),
        { numRuns: PROPERTY_RUNS },
      ),
    PROPERTY_TIMEOUT_MS,
  );
});
