/**
 * Small composable fast-check arbitraries for canonical histories, named as sentences so a property
 * reads like its claim. Shared by the compaction, fallback and session property tests.
 */
// Plain fast-check, so the bench can use these outside vitest.
import fc from 'fast-check';
import { implementedFamilies } from '../../src/engine/families/registry.js';
import type {
  History,
  Message,
  ReasoningDetail,
  StandardCarrierField,
  TextPart,
  ToolCall,
} from '../../src/shared/history/history.js';
import { STANDARD_CARRIER_FIELDS } from '../../src/shared/history/history.js';
import { makeCheckpoint } from '../../src/engine/compaction/checkpoint.js';
import { loadRouteTable } from '../../src/shared/route-table/load-route-table.js';
import { resolveRoute } from '../../src/shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable } from '../../src/shared/route-table/route-table.js';
import { sampleTargetForRoute } from '../../src/shared/route-table/sample-target.js';

/** FC_RUNS=2000 npx vitest run ... for a longer hunt; CI uses 200. */
export const PROPERTY_RUNS = Math.max(200, Number(process.env.FC_RUNS) || 200);
/**
 * Per-property test timeout that grows with FC_RUNS (the operation-sequence property takes ~60 ms a run on a loaded
 * box).
 */
export const PROPERTY_TIMEOUT_MS = 60_000 + PROPERTY_RUNS * 150;

const aLoneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Reasoning text as providers return it, edge cases included: the pad, empty, whitespace, astral and broken UTF-16. */
export const aReasoningText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.lorem({ maxCount: 12, mode: 'words' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(' ', '', '\n', '  \t') },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), aLoneSurrogate).map(([a, b]) => a + b) },
);

const aSignature = fc.base64String({ minLength: 4, maxLength: 40 });
const someExtraKeys = fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });

/** One typed reasoning item of any kind, with extra keys a signature might cover (kept in their order). */
export const aReasoningDetail: fc.Arbitrary<ReasoningDetail> = fc
  .tuple(
    fc.oneof(
      fc.record(
        {
          type: fc.constant('reasoning.text' as const),
          text: aReasoningText,
          signature: fc.option(aSignature, { nil: undefined }),
          format: fc.constantFrom('anthropic-claude-v1', 'unknown'),
        },
        { requiredKeys: ['type', 'text'] },
      ),
      fc.record({ type: fc.constant('reasoning.summary' as const), summary: aReasoningText }),
      fc.record(
        {
          type: fc.constant('reasoning.encrypted' as const),
          data: aSignature,
          id: fc.stringMatching(/^rs_[a-z0-9]{4}$/),
        },
        { requiredKeys: ['type', 'data'] },
      ),
      fc.record(
        { type: fc.constant('thinking' as const), thinking: aReasoningText, signature: aSignature },
        { requiredKeys: ['type', 'thinking'] },
      ),
      fc.record({ type: fc.constant('redacted_thinking' as const), data: aSignature }),
    ),
    someExtraKeys,
    fc.boolean(),
  )
  .map(
    ([detail, extra, extraFirst]) =>
      (extraFirst ? { ...extra, ...detail } : { ...detail, ...extra }) as ReasoningDetail,
  );

/**
 * A native record in the shape its route key owns (specs/schema/history.schema.json): Gemini's
 * flat signature (read by Google's first-function-call rule) or Copilot's opaque blob with its
 * reasoning_text as the text itself. A record under the wrong key would be refused, not replayed.
 */
export const aNativeRecord = fc.oneof(
  fc.record({ route: fc.constantFrom('gemini', 'vertex-gemini'), fields: fc.record({ thoughtSignature: aSignature }) }),
  fc.record({
    route: fc.constant('copilot'),
    fields: fc.record(
      { reasoning_text: aReasoningText, reasoning_opaque: aSignature },
      { requiredKeys: ['reasoning_opaque'] },
    ),
  }),
);

const aTextContent = fc.oneof(
  { weight: 4, arbitrary: fc.lorem({ maxCount: 8 }) },
  {
    weight: 1,
    arbitrary: fc.array(fc.record({ type: fc.constant('text' as const), text: fc.lorem({ maxCount: 4 }) }), {
      minLength: 1,
      maxLength: 2,
    }) as fc.Arbitrary<TextPart[]>,
  },
);

export const aUserTurn: fc.Arbitrary<Message> = aTextContent.map((content) => ({ role: 'user', content }));

/** Any subset of the carriers an assistant message can hold at once. */
const someCarriers = fc.record(
  {
    reasoning_content: aReasoningText,
    reasoning: aReasoningText,
    reasoning_details: fc.array(aReasoningDetail, { maxLength: 3 }),
    native: aNativeRecord,
  },
  { requiredKeys: [] },
);

export const anAssistantTurnWithCarriers: fc.Arbitrary<Message> = fc
  .tuple(fc.oneof(fc.constant(null), fc.constant(''), fc.lorem({ maxCount: 10 })), someCarriers)
  .map(([content, carriers]) => ({ role: 'assistant', content, ...carriers }));

const aToolCall: fc.Arbitrary<ToolCall> = fc.record({
  id: fc.constant('pending'),
  type: fc.constant('function' as const),
  function: fc.record({
    name: fc.constantFrom('weather', 'search', 'run'),
    arguments: fc
      .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
      .map((args) => JSON.stringify(args)),
  }),
});

const aToolResult = fc.oneof(fc.lorem({ maxCount: 6 }), fc.lorem({ maxCount: 80 }));

/** An assistant turn that calls 1-2 tools, then one result per call. */
export const aToolCallStep: fc.Arbitrary<Message[]> = fc
  .tuple(
    anAssistantTurnWithCarriers,
    fc.array(aToolCall, { minLength: 1, maxLength: 2 }),
    fc.array(aToolResult, { minLength: 2, maxLength: 2 }),
  )
  .map(([assistant, calls, results]) => [
    { ...assistant, tool_calls: calls },
    ...calls.map((_, i): Message => ({ role: 'tool', tool_call_id: 'pending', content: results[i]! })),
  ]);

/** A user request answered through 1-3 tool steps and a final answer. */
export const aToolLoop: fc.Arbitrary<Message[]> = fc
  .tuple(aUserTurn, fc.array(aToolCallStep, { minLength: 1, maxLength: 3 }), anAssistantTurnWithCarriers)
  .map(([user, steps, answer]) => [user, ...steps.flat(), answer]);

export const aPlainExchange: fc.Arbitrary<Message[]> = fc
  .tuple(aUserTurn, anAssistantTurnWithCarriers)
  .map(([u, a]) => [u, a]);

export const anExchange: fc.Arbitrary<Message[]> = fc.oneof(
  aPlainExchange,
  aToolLoop,
  aToolLoop.map((m) => m.slice(0, -1)),
);

export const aCheckpoint: fc.Arbitrary<Message> = fc.lorem({ maxCount: 10 }).map(makeCheckpoint);

/** Gives every tool call a unique id and points each result at its call (generation cannot know them). */
export function withToolIds(messages: Message[], prefix = 'call'): Message[] {
  let n = 0;
  let pending: string[] = [];
  return messages.map((m) => {
    if (m.tool_calls) {
      pending = m.tool_calls.map(() => `${prefix}_${++n}`);
      return { ...m, tool_calls: m.tool_calls.map((c, i) => ({ ...c, id: pending[i]! })) };
    }
    if (m.role === 'tool') return { ...m, tool_call_id: pending.shift() ?? `${prefix}_orphan` };
    return m;
  });
}

/** A conversation: an optional system prompt, then exchanges, now and then a compaction checkpoint. */
export const aHistory: fc.Arbitrary<History> = fc
  .tuple(
    fc.option(fc.lorem({ maxCount: 6 }), { nil: undefined }),
    fc.array(fc.tuple(anExchange, fc.option(aCheckpoint, { freq: 6, nil: undefined })), { minLength: 1, maxLength: 6 }),
  )
  .map(([system, exchanges]) => ({
    messages: withToolIds([
      ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
      ...exchanges.flatMap(([ex, cp]) => (cp ? [cp, ...ex] : ex)),
    ]),
  }));

let table: RouteTable | undefined;
const routeTable = () => (table ??= loadRouteTable());

/** Every route of specs/routes.json whose wire family is implemented, as a resolved policy. */
export function routePolicies(): RoutePolicy[] {
  return routeTable()
    .routes.filter((r) => implementedFamilies().includes(r.family))
    .map((r) => resolveRoute(routeTable(), sampleTargetForRoute(r)));
}

export const aRoutePolicy: fc.Arbitrary<RoutePolicy> = fc.constantFrom(...routePolicies());

/** What a real provider turns out to accept, which the route table may get wrong. */
export const aSetOfFieldsTheProviderReads: fc.Arbitrary<StandardCarrierField[]> = fc.subarray([
  ...STANDARD_CARRIER_FIELDS,
]);
