import type { Message, ReasoningDetail, StandardCarrierField } from '../../src/shared/history/history.js';
import type { RoutePolicy, RouteTable, RouteTarget } from '../../src/shared/route-table/route-table.js';
import type { FamilyId } from '../../src/shared/wire/families.js';
import { formatSse, parseSse } from '../../src/shared/sse/parse-sse.js';
import type { SseEvent } from '../../src/shared/sse/sse-event.js';
import { deepMerge, isPlainObject } from '../../src/shared/objects/deep-merge.js';
import { isLocalHost } from '../../src/shared/route-table/host-matching.js';
import { modelMatches } from '../../src/shared/route-table/model-match.js';
import { findRoute } from '../../src/shared/route-table/resolve-route.js';
import { loadRouteTable } from '../../src/shared/route-table/load-route-table.js';
import type { Behaviour } from '../../src/judge/conformance/verdict.js';

/**
 * The seeded engine bugs of issue 28: realistic mistakes a team could write in its own engine,
 * each applied alone to this project's engine (src/engine) through test-only patches of its
 * modules, and driven through the same seam an external engine uses. `check`'s matrix must fail
 * every one, naming the broken rule. Each bug is narrowed to the provider targets and scenarios
 * that exercise it, as `check --provider` narrows the matrix (the whole matrix per bug would cost
 * one to two CPU-seconds each).
 */

/** The engine functions a bug may replace; each patch gets the original and returns the broken one. */
export interface Patches {
  selectCarriers?: (original: SelectCarriers) => SelectCarriers;
  /** Wraps a wire family's request builder, answer parser or stream reader. */
  families?: Partial<Record<FamilyId, (original: FamilyLike) => FamilyLike>>;
  detectUnknownField?: (original: DetectUnknownField, named: NamedCarriers) => DetectUnknownField;
  /** A bug in the fallback loop itself. */
  sendWithFallback?: (original: SendWithFallback) => SendWithFallback;
  /** The key a verdict is stored and looked up under. */
  verdictKey?: (key: RouteTarget) => RouteTarget;
  salvage?: (original: Salvage) => Salvage;
  shadowedCheckpoints?: (
    original: (messages: readonly Message[]) => number[],
  ) => (messages: readonly Message[]) => number[];
  /** The pricing compaction's tail walk uses (the preflight estimate keeps its own). */
  tailWalkPrice?: (original: PriceMessage) => PriceMessage;
  compress?: (original: Compress) => Compress;
  /** What a session read back from state.db holds. */
  resumedMessages?: (messages: Message[]) => Message[];
  /** appendExchange ignores the verdicts it is handed. */
  appendWithoutVerdicts?: true;
  /** A branch copies its turns without this column. */
  branchWithout?: 'reasoning_content';
  /** The engine's own route resolution (host matching, flags). */
  resolve?: (original: Resolve) => Resolve;
  /** Whether compaction keeps a message as holding a provider's compaction carrier. */
  holdsServerCompaction?: (original: (message: Message) => boolean) => (message: Message) => boolean;
}

export type SelectCarriers = (
  message: Message,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
) => Record<string, unknown> & {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: ReasoningDetail[];
  native?: Record<string, unknown>;
  padded?: boolean;
};
export interface FamilyLike {
  id: FamilyId;
  toRequest(history: { messages: Message[] }, policy: RoutePolicy, options?: Record<string, unknown>): RequestLike;
  fromResponse(body: unknown, policy?: RoutePolicy): { message: Message } & Record<string, unknown>;
  streamCarriers?(policy?: RoutePolicy): { feed(chunk: string): void; end(): { message: Message } };
}
interface RequestLike {
  path: string;
  body: Record<string, unknown>;
  [key: string]: unknown;
}
export type DetectUnknownField = (
  status: number | null | undefined,
  body: unknown,
  sentFields: readonly StandardCarrierField[],
  tier: 'standard' | 'strict' | 'must-echo',
  phrasings?: unknown,
) => StandardCarrierField[] | null;
/** The detector's own helpers, for bugs that skip one of its tests. */
export interface NamedCarriers {
  errorText(body: unknown): string;
  carriersNamed(text: string): StandardCarrierField[];
  widen(named: readonly StandardCarrierField[]): StandardCarrierField[];
}
export type SendWithFallback = (args: Record<string, unknown>) => Promise<{
  attempts: Array<{ attempt: 1 | 2 } & Record<string, unknown>>;
  response: { status: number };
  recorded: StandardCarrierField[];
  retryRejected: boolean;
}>;
export type Salvage = (
  messages: readonly Message[],
  price: (m: Message) => number,
  maxSummaryChars: number,
) => { messages: Message[]; from: number[] } | null;
export type PriceMessage = (message: Message, policy?: RoutePolicy, omit?: ReadonlySet<StandardCarrierField>) => number;
export type Compress = (
  history: { messages: Message[] },
  budget: number,
  options?: Record<string, unknown>,
) => { history: { messages: Message[] }; kept: (number | null)[] } & Record<string, unknown>;
export type Resolve = (table: RouteTable, target: RouteTarget) => RoutePolicy;

export interface SeededBug {
  id: string;
  /** The mistake, as a team would make it. */
  bug: string;
  /** The behaviour `check` must fail. */
  rule: Behaviour;
  /** Provider targets whose routes run (check --provider). */
  providers: string[];
  /** Scenarios that exercise the rule (all when absent). */
  scenarios?: string[];
  patch: Patches;
  /**
   * A bug of a class held out from the first seeded set (issue 41): only its own scenarios catch it. The test also
   * runs it on every other scenario of its provider targets, which must find nothing.
   */
  heldOut?: true;
  /**
   * A bug of a held-out class that a new provider target catches rather than a new scenario: every scenario of that
   * target may catch it, and the test runs it on every other target of its routes, all scenarios, which must find
   * nothing.
   */
  heldOutTarget?: string;
  /**
   * Why no bundled target can show the bug today (the only model the code path serves refuses what exercises it).
   * The test then asserts check sees nothing, so it fails, asking for this to go, once a target can show it.
   */
  unreachable?: string;
}

const PAD = ' ';
/** The bundled route table, for bugs that key state by what a route says (its wire family). */
const ROUTES = loadRouteTable();
const nonBlank = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';
const toolTurn = (m: Message) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0;

/** A stream reader fed a rewritten stream: the wrapped reader never sees the events `keep` drops or edits. */
function rewriteStream(
  original: FamilyLike,
  rewrite: (events: SseEvent[]) => SseEvent[],
): FamilyLike['streamCarriers'] {
  return (policy) => {
    let text = '';
    return {
      feed: (chunk: string) => void (text += chunk),
      end: () => {
        const reader = original.streamCarriers!(policy);
        reader.feed(formatSse(rewrite(parseSse(text).events)));
        return reader.end();
      },
    };
  };
}

const json = (event: SseEvent): unknown => {
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
};

/** Keeps only the first event of each group `key` puts it in (undefined: not a piece, always kept). */
function firstPieceOnly(key: (payload: unknown, event: SseEvent) => string | undefined) {
  return (events: SseEvent[]) => {
    const seen = new Set<string>();
    return events.filter((event) => {
      const k = key(json(event), event);
      if (k === undefined) return true;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
}

const chatDelta = (payload: unknown): Record<string, unknown> | undefined => {
  if (!isPlainObject(payload) || !Array.isArray(payload.choices)) return undefined;
  const choice = payload.choices[0];
  return isPlainObject(choice) && isPlainObject(choice.delta) ? choice.delta : undefined;
};

/** Flags of every set a route lists, whatever their `when`: the version range ignored. */
function allFlagsOf(table: RouteTable, routeId: string): Record<string, unknown> {
  let flags: Record<string, unknown> = {};
  for (const flag of table.routes.find((r) => r.id === routeId)?.flags ?? []) flags = deepMerge(flags, flag.set);
  return flags;
}

/** A host matcher with one of the classic mistakes, and the route resolution that uses it. */
function resolveWithHostMatcher(matches: (host: string, pattern: string) => boolean): (original: Resolve) => Resolve {
  return (original) => (table, target) => {
    const provider = target.provider.trim().toLowerCase();
    const hit = table.routes.find((route) => {
      const m = route.match;
      if (m.default) return true;
      const keyed =
        (m.providers?.includes(provider) ?? false) ||
        (m.hosts?.some((h) => matches(target.host, h)) ?? false) ||
        (m.local === true && isLocalHost(target.host));
      return keyed && modelMatches(target.model, m);
    })!;
    // Everything after the match (flags, upstream rules, policies) as the real resolution does it.
    return original({ ...table, routes: [{ ...hit, match: { default: true } }] }, target);
  };
}
const hostOf = (h: string) => h.replace(/:\d+$/, '').replace(/\.$/, '');

/** Typed items an engine might read: only OpenRouter's `reasoning.text` (the held-out bug reads no other kind). */
const textItemsOnly = (m: Message) =>
  (m.reasoning_details ?? []).some((d) => d.type === 'reasoning.text' && nonBlank((d as { text?: unknown }).text));

export const SEEDED_BUGS: readonly SeededBug[] = [
  // ---- held out from the first set (issue 41): each caught only by its own scenario ----
  {
    id: 'provider-id-wins-over-host',
    bug: 'a row listing the provider id wins over an earlier row matching the host (a strict host loses to the id)',
    rule: 'strict-schema',
    providers: ['deepseek'],
    scenarios: ['provider-and-host-disagree'],
    heldOut: true,
    patch: {
      resolve: (original) => (table, target) => {
        const provider = target.provider.trim().toLowerCase();
        const byId = table.routes.find(
          (r) => (r.match.providers?.includes(provider) ?? false) && modelMatches(target.model, r.match),
        );
        return byId
          ? original({ ...table, routes: [{ ...byId, match: { default: true } }] }, target)
          : original(table, target);
      },
    },
  },
  {
    id: 'pad-replaces-summary-and-thinking',
    bug: 'only reasoning.text items are read as text: a must-echo tool-call turn holding a reasoning.summary or a thinking block gets the pad',
    rule: 'must-echo',
    providers: ['deepseek', 'moonshot', 'mimo'],
    scenarios: ['must-echo-typed-items-only'],
    heldOut: true,
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        if (policy.tier !== 'must-echo' || !toolTurn(message)) return out;
        if (nonBlank(message.reasoning_content) || nonBlank(message.reasoning) || textItemsOnly(message)) return out;
        return { ...out, reasoning_content: PAD, padded: true };
      },
    },
  },
  {
    id: 'host-prefix-matches-route',
    bug: 'a host that starts with a route host resolves to that route (api.deepseek.com.evil.io matches api.deepseek.com)',
    rule: 'must-echo',
    providers: ['vllm-local'],
    scenarios: ['host-route-host-as-prefix'],
    heldOut: true,
    patch: {
      resolve: resolveWithHostMatcher((host, pattern) => {
        const h = hostOf(host.toLowerCase());
        const p = pattern.toLowerCase();
        return !p.startsWith('*-') && (h === p || h.endsWith(`.${p}`) || h.startsWith(p));
      }),
    },
  },
  {
    id: 'verdict-per-family-pads-must-echo',
    bug: 'an unknown-field verdict is kept per wire family (one for every OpenAI-compatible endpoint), and a must-echo tool-call turn whose reasoning_content it withholds gets the pad',
    rule: 'must-echo',
    providers: ['deepseek', 'moonshot', 'mimo'],
    scenarios: ['fallback-verdict-then-must-echo'],
    heldOut: true,
    patch: {
      verdictKey: (target) => ({ provider: findRoute(ROUTES, target).family, host: '*', model: '*' }),
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        if (policy.tier !== 'must-echo' || !toolTurn(message) || !omit?.has('reasoning_content')) return out;
        return { ...out, reasoning_content: PAD, padded: true };
      },
    },
  },
  {
    id: 'bedrock-strip-ignores-split-point',
    bug: 'the strip replay policy removes reasoning from every turn, the current tool loop included',
    rule: 'fields-sent',
    // Strip differs from its bug only inside a tool loop: DeepSeek R1 takes no tools (langchain-aws#447), so the
    // strip target that shows it is Kimi K2 Thinking on Bedrock. bedrock-replay-policy was written for this loop and
    // had no strip target to run it on; bedrock-strip-tool-loop-in-flight adds a second step inside the loop.
    providers: ['bedrock-kimi-k2-thinking'],
    scenarios: ['bedrock-strip-tool-loop-in-flight', 'bedrock-replay-policy'],
    heldOutTarget: 'bedrock-kimi-k2-thinking',
    patch: {
      families: {
        'bedrock-converse': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            if (policy.replayPolicy !== 'strip') return request;
            const messages = (request.body.messages as Array<{ role: string; content: unknown[] }>).map((m) =>
              m.role === 'assistant'
                ? { ...m, content: m.content.filter((b) => !(isPlainObject(b) && 'reasoningContent' in b)) }
                : m,
            );
            return { ...request, body: { ...request.body, messages } };
          },
        }),
      },
    },
  },
  // ---- must-echo ----
  {
    id: 'pad-every-assistant-turn',
    bug: 'the must-echo pad is written on every assistant turn, not only on tool-call turns without reasoning',
    rule: 'must-echo',
    providers: ['deepseek', 'moonshot', 'mimo'],
    scenarios: ['must-echo-pad-scope', 'plain-two-turn-chat'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        if (policy.tier === 'must-echo' && message.role === 'assistant' && out.reasoning_content === undefined)
          return { ...out, reasoning_content: PAD, padded: true };
        return out;
      },
    },
  },
  {
    id: 'pad-from-content',
    bug: 'the must-echo pad is made up from the message content',
    rule: 'must-echo',
    providers: ['deepseek', 'moonshot', 'mimo'],
    scenarios: ['must-echo-pad-scope'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        return out.padded && nonBlank(message.content) ? { ...out, reasoning_content: message.content } : out;
      },
    },
  },
  {
    id: 'pad-replaces-typed-reasoning',
    bug: 'the pad replaces readable reasoning held as typed items (reasoning_details)',
    rule: 'must-echo',
    providers: ['deepseek', 'moonshot', 'mimo'],
    scenarios: ['must-echo-pad-scope', 'route-switch-mid-conversation', 'aggregator-multi-carrier-history'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        if (policy.tier !== 'must-echo' || !toolTurn(message)) return out;
        if (nonBlank(message.reasoning_content) || nonBlank(message.reasoning)) return out;
        return { ...out, reasoning_content: PAD, padded: true };
      },
    },
  },
  {
    id: 'pad-empty-string',
    bug: 'the pad is the empty string, which DeepSeek V4 refuses as missing',
    rule: 'must-echo',
    providers: ['deepseek'],
    scenarios: ['tool-call-without-stored-reasoning'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        return out.padded ? { ...out, reasoning_content: '' } : out;
      },
    },
  },
  // ---- vendor flags ----
  {
    id: 'kimi-keep-on-every-must-echo-route',
    bug: 'Kimi\'s thinking {keep: "all"} goes to every must-echo route',
    rule: 'fields-sent',
    providers: ['deepseek', 'mimo'],
    patch: {
      families: {
        'openai-chat': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            if (policy.tier !== 'must-echo') return request;
            return { ...request, body: deepMerge(request.body, { thinking: { type: 'enabled', keep: 'all' } }) };
          },
        }),
      },
    },
  },
  {
    id: 'flags-ignore-model-range',
    bug: "a route's keep-thinking flags go to every model it serves, whatever their version range",
    rule: 'fields-sent',
    providers: ['moonshot', 'dashscope', 'zhipu-glm'],
    scenarios: ['vendor-flags-by-model'],
    patch: {
      resolve: (original) => (table, target) => {
        const policy = original(table, target);
        return { ...policy, flags: deepMerge(allFlagsOf(table, policy.routeId), policy.flags) };
      },
    },
  },
  {
    id: 'flags-on-every-route',
    bug: "DashScope's preserve_thinking is sent on every chat route",
    rule: 'fields-sent',
    providers: ['moonshot', 'fireworks', 'zhipu-glm'],
    patch: {
      families: {
        'openai-chat': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            return { ...request, body: { ...request.body, preserve_thinking: true } };
          },
        }),
      },
    },
  },
  // ---- native records ----
  {
    id: 'native-to-any-native-route',
    bug: 'a native record reaches any route that owns a native record, not only the one that captured it',
    rule: 'native-scoped',
    providers: ['gemini', 'vertex-gemini', 'copilot', 'anthropic'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        return policy.native && message.native ? { ...out, native: message.native.fields } : out;
      },
    },
  },
  {
    id: 'gemini-reads-record-unscoped',
    bug: 'the Gemini wire reads a native record without looking at which route it belongs to',
    rule: 'native-scoped',
    providers: ['gemini', 'vertex-gemini'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        return policy.family === 'gemini' && message.native ? { ...out, native: message.native.fields } : out;
      },
    },
  },
  {
    id: 'copilot-signature-in-tool-call',
    bug: "Copilot's thought_signature is kept in the canonical tool call, so it travels to every route",
    rule: 'native-scoped',
    providers: ['copilot'],
    patch: {
      families: {
        copilot: (original) => {
          const keep = (message: Message): Message => {
            const sig = message.native?.fields.thought_signature;
            const at = message.native?.fields.thought_signature_call;
            if (typeof sig !== 'string' || typeof at !== 'number' || !message.tool_calls?.[at]) return message;
            const calls = message.tool_calls.map((c, i) =>
              i === at ? ({ ...c, function: { ...c.function, thought_signature: sig } } as typeof c) : c,
            );
            return { ...message, tool_calls: calls };
          };
          return {
            ...original,
            fromResponse: (body, policy) => {
              const parsed = original.fromResponse(body, policy);
              return { ...parsed, message: keep(parsed.message) };
            },
            streamCarriers: (policy) => {
              const reader = original.streamCarriers!(policy);
              return {
                feed: (chunk) => reader.feed(chunk),
                end: () => {
                  const parsed = reader.end();
                  return { ...parsed, message: keep(parsed.message) };
                },
              };
            },
          };
        },
      },
    },
  },
  // ---- Bedrock ----
  {
    id: 'bedrock-claude-by-prefix',
    bug: 'Claude is detected by the "anthropic." id prefix, so us./global. inference-profile ids get no thinking',
    rule: 'fields-sent',
    providers: ['bedrock-claude'],
    patch: {
      families: {
        'bedrock-converse': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            if (policy.target.model.startsWith('anthropic.')) return request;
            const extra = request.body.additionalModelRequestFields as Record<string, unknown> | undefined;
            if (!extra) return request;
            const { thinking: _dropped, ...rest } = extra;
            const { additionalModelRequestFields: _extra, ...others } = request.body;
            const body = Object.keys(rest).length === 0 ? others : { ...others, additionalModelRequestFields: rest };
            return { ...request, body };
          },
        }),
      },
    },
  },
  {
    id: 'bedrock-unsigned-keeps-signatures',
    bug: 'the unsigned replay policy keeps signatures (and redacted blobs) on earlier turns',
    rule: 'fields-sent',
    providers: ['bedrock-gpt-oss'],
    patch: {
      families: {
        'bedrock-converse': (original) => ({
          ...original,
          toRequest: (history, policy, options) =>
            original.toRequest(
              history,
              policy.replayPolicy === 'unsigned' ? { ...policy, replayPolicy: 'signed' } : policy,
              options,
            ),
        }),
      },
    },
  },
  // ---- the unknown-field fallback ----
  {
    id: 'fallback-counts-5xx',
    bug: 'the fallback counts a 5xx naming a carrier as an unknown-field rejection',
    rule: 'fallback-recovers',
    providers: ['openai', 'openrouter'],
    scenarios: ['fallback-edge-cases'],
    patch: {
      detectUnknownField: (original) => (status, body, sent, tier, phrasings) =>
        original(status !== undefined && status !== null && status >= 500 ? 400 : status, body, sent, tier, phrasings),
    },
  },
  {
    id: 'fallback-counts-any-4xx',
    bug: 'the fallback counts any 4xx that names a sent carrier, without the unknown-field phrasing',
    rule: 'fallback-recovers',
    providers: ['openai', 'openrouter'],
    scenarios: ['fallback-edge-cases'],
    patch: {
      detectUnknownField: (original, named) => (status, body, sent, tier, phrasings) => {
        const found = original(status, body, sent, tier, phrasings);
        if (found || status === undefined || status === null || status < 400 || status > 499) return found;
        const hit = named.carriersNamed(named.errorText(body)).filter((f) => sent.includes(f));
        return hit.length > 0 ? named.widen(hit) : null;
      },
    },
  },
  {
    id: 'fallback-retries-twice',
    bug: 'the fallback retries a second time when its retry is refused too',
    rule: 'fallback-recovers',
    providers: ['openai', 'openrouter'],
    scenarios: ['fallback-edge-cases'],
    patch: {
      sendWithFallback: (original) => async (args) => {
        const first = await original(args);
        if (!first.retryRejected) return first;
        const again = await original(args);
        return {
          ...again,
          attempts: [...first.attempts, ...again.attempts],
          recorded: [...first.recorded, ...again.recorded],
        };
      },
    },
  },
  {
    id: 'verdict-key-without-model',
    bug: 'a fallback verdict is keyed by provider and host only, so it withholds the field from every model there',
    rule: 'fallback-recovers',
    providers: ['openai'],
    scenarios: ['fallback-verdict-key'],
    patch: { verdictKey: (key) => ({ ...key, model: '*' }) },
  },
  {
    id: 'verdict-key-without-host',
    bug: 'a fallback verdict is keyed by provider and model only, so another host of the same provider inherits it',
    rule: 'fallback-recovers',
    providers: ['openai'],
    scenarios: ['fallback-verdict-key'],
    patch: { verdictKey: (key) => ({ ...key, host: '*' }) },
  },
  {
    id: 'verdict-not-saved-with-exchange',
    bug: 'the verdict is not stored with the exchange, so a resumed session meets the same rejection again',
    rule: 'survives-resume',
    providers: ['openai'],
    patch: { appendWithoutVerdicts: true },
  },
  {
    id: 'must-echo-records-reasoning-content',
    bug: 'a must-echo route records an unknown-field verdict for reasoning_content and retries without it',
    rule: 'must-echo',
    providers: ['deepseek', 'moonshot'],
    scenarios: ['fallback-edge-cases'],
    patch: {
      detectUnknownField: (original) => (status, body, sent, tier, phrasings) =>
        original(status, body, sent, tier === 'must-echo' ? 'standard' : tier, phrasings),
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        if (policy.tier !== 'must-echo' || !omit?.has('reasoning_content')) return out;
        const { reasoning_content: _dropped, padded: _padded, ...rest } = out;
        return rest;
      },
    },
  },
  {
    id: 'must-echo-records-without-dropping',
    bug: 'a must-echo route records a reasoning_content verdict (and retries) though the field is never dropped there',
    rule: 'fallback-recovers',
    providers: ['deepseek', 'moonshot'],
    scenarios: ['fallback-edge-cases'],
    patch: {
      detectUnknownField: (original) => (status, body, sent, tier, phrasings) =>
        original(status, body, sent, tier === 'must-echo' ? 'standard' : tier, phrasings),
    },
  },
  // ---- compaction ----
  {
    id: 'salvage-trims-long-reasoning',
    bug: 'salvage trims long reasoning on the turns it keeps',
    rule: 'survives-compaction',
    providers: ['deepseek', 'openrouter', 'anthropic', 'openai-responses'],
    scenarios: ['long-reasoning-compaction'],
    patch: {
      salvage: (original) => (messages, price, max) => {
        const result = original(messages, price, max);
        if (!result) return result;
        const trim = (s: string | undefined) => (s !== undefined && s.length > 400 ? s.slice(0, 400) : s);
        return {
          ...result,
          messages: result.messages.map((m) =>
            m.role === 'assistant' && (m.reasoning_content ?? m.reasoning ?? '').length > 400
              ? ({
                  ...m,
                  ...(m.reasoning_content !== undefined ? { reasoning_content: trim(m.reasoning_content) } : {}),
                  ...(m.reasoning !== undefined ? { reasoning: trim(m.reasoning) } : {}),
                } as Message)
              : m,
          ),
        };
      },
    },
  },
  {
    id: 'salvage-drops-newest-checkpoint',
    bug: 'salvage drops the newest checkpoint too, not only the ones a newer checkpoint shadows',
    rule: 'survives-compaction',
    providers: ['deepseek', 'openrouter', 'anthropic'],
    patch: {
      shadowedCheckpoints: (original) => (messages) => {
        const shadowed = original(messages);
        const lastUser = messages.findLastIndex(
          (m) =>
            m.role === 'user' &&
            !(typeof m.content === 'string' && m.content.startsWith('[reasoning-replay compaction checkpoint]')),
        );
        const checkpoints = messages.flatMap((m, i) =>
          i < lastUser &&
          m.role === 'user' &&
          typeof m.content === 'string' &&
          m.content.startsWith('[reasoning-replay compaction checkpoint]')
            ? [i]
            : [],
        );
        return [...new Set([...shadowed, ...checkpoints])];
      },
    },
  },
  {
    id: 'tail-walk-prices-opaque-at-zero',
    bug: 'the compaction tail walk prices opaque carriers at zero while the preflight counts them (compaction loops)',
    rule: 'survives-compaction',
    providers: ['openrouter', 'anthropic', 'openai-responses', 'gemini'],
    patch: {
      tailWalkPrice: (original) => (message, policy, omit) =>
        original({ ...message, reasoning_details: undefined, native: undefined } as Message, policy, omit),
    },
  },
  {
    id: 'compaction-drops-encrypted-on-older-turns',
    bug: 'compaction drops encrypted and redacted items from the older turns it keeps',
    rule: 'survives-compaction',
    providers: ['openrouter', 'anthropic', 'openai-responses'],
    patch: {
      compress: (original) => (history, budget, options) => {
        const result = original(history, budget, options);
        const messages = result.history.messages;
        const lastUser = messages.findLastIndex((m) => m.role === 'user');
        const opaque = (d: ReasoningDetail) =>
          d.type === 'reasoning.encrypted' || d.type === 'redacted_thinking' || d.type === 'thinking';
        return {
          ...result,
          history: {
            messages: messages.map((m, i) =>
              i < lastUser && m.reasoning_details?.some(opaque)
                ? { ...m, reasoning_details: m.reasoning_details.filter((d) => !opaque(d)) }
                : m,
            ),
          },
        };
      },
    },
  },
  {
    id: 'compaction-drops-older-reasoning',
    bug: 'compaction removes readable reasoning from the older turns it keeps (the behaviour the seed replaced)',
    rule: 'survives-compaction',
    providers: ['deepseek', 'openrouter', 'zhipu-glm'],
    patch: {
      compress: (original) => (history, budget, options) => {
        const result = original(history, budget, options);
        const messages = result.history.messages;
        const lastUser = messages.findLastIndex((m) => m.role === 'user');
        return {
          ...result,
          history: {
            messages: messages.map((m, i) => {
              if (i >= lastUser || m.role !== 'assistant') return m;
              const { reasoning_content: _a, reasoning: _b, ...rest } = m;
              return rest as Message;
            }),
          },
        };
      },
    },
  },
  // ---- resume ----
  {
    id: 'resume-drops-stored-pad',
    bug: 'a resumed session drops a stored " " reasoning_content (NULL and " " not kept apart)',
    rule: 'survives-resume',
    providers: ['deepseek', 'openrouter', 'openai'],
    scenarios: ['must-echo-pad-scope'],
    patch: {
      resumedMessages: (messages) =>
        messages.map((m) => {
          if (m.reasoning_content !== PAD) return m;
          const { reasoning_content: _pad, ...rest } = m;
          return rest as Message;
        }),
    },
  },
  {
    id: 'resume-reorders-reasoning-details',
    bug: 'a resumed session reads reasoning_details back in another order',
    rule: 'survives-resume',
    providers: ['openrouter', 'anthropic'],
    patch: {
      resumedMessages: (messages) =>
        messages.map((m) =>
          (m.reasoning_details?.length ?? 0) > 1 ? { ...m, reasoning_details: [...m.reasoning_details!].reverse() } : m,
        ),
    },
  },
  // ---- host matching ----
  {
    id: 'host-suffix-without-dot',
    bug: 'a host matches a route host it merely ends with (notmoonshot.ai matches moonshot.ai)',
    rule: 'must-echo',
    providers: ['vllm-local'],
    scenarios: ['host-look-alikes'],
    patch: {
      resolve: resolveWithHostMatcher((host, pattern) => {
        const h = hostOf(host.toLowerCase());
        return !pattern.startsWith('*-') && h.endsWith(pattern.toLowerCase());
      }),
    },
  },
  {
    id: 'host-look-alike-prefix',
    bug: 'a host matches a route host it starts with (api.moonshot.ai.example-evil.io matches moonshot.ai)',
    rule: 'must-echo',
    providers: ['vllm-local'],
    scenarios: ['host-look-alikes'],
    patch: {
      resolve: resolveWithHostMatcher((host, pattern) => {
        const h = hostOf(host.toLowerCase());
        const p = pattern.toLowerCase();
        return !p.startsWith('*-') && (h === p || h.endsWith(`.${p}`) || h.includes(`${p}.`));
      }),
    },
  },
  {
    id: 'host-case-sensitive',
    bug: 'hosts are compared case-sensitively (API.MOONSHOT.AI misses moonshot.ai)',
    rule: 'must-echo',
    providers: ['vllm-local'],
    scenarios: ['host-look-alikes'],
    patch: {
      resolve: resolveWithHostMatcher((host, pattern) => {
        const h = hostOf(host);
        return !pattern.startsWith('*-') && (h === pattern || h.endsWith(`.${pattern}`));
      }),
    },
  },
  // ---- streams ----
  {
    id: 'copilot-stream-keeps-first-opaque',
    bug: 'the Copilot stream reader keeps the first reasoning_opaque, not the latest',
    rule: 'signatures-verbatim',
    providers: ['copilot'],
    scenarios: ['streamed-parallel-tool-calls'],
    patch: {
      families: {
        copilot: (original) => ({
          ...original,
          streamCarriers: rewriteStream(
            original,
            firstPieceOnly((payload) =>
              typeof chatDelta(payload)?.reasoning_opaque === 'string' ? 'opaque' : undefined,
            ),
          ),
        }),
      },
    },
  },
  {
    id: 'chat-stream-truncates-data',
    bug: 'the chat stream reader keeps only the first piece of an encrypted reasoning_details item',
    rule: 'signatures-verbatim',
    providers: ['openrouter', 'kilo', 'nous-portal'],
    scenarios: ['streamed-redacted-reasoning'],
    patch: {
      families: {
        'openai-chat': (original) => ({
          ...original,
          streamCarriers: rewriteStream(original, (events) => {
            const seen = new Set<string>();
            return events.map((event) => {
              const payload = json(event);
              const delta = chatDelta(payload);
              if (!delta || !Array.isArray(delta.reasoning_details)) return event;
              const details = delta.reasoning_details.map((d: unknown) => {
                if (!isPlainObject(d) || typeof d.data !== 'string') return d;
                const key = String(d.index);
                if (!seen.has(key)) return (seen.add(key), d);
                return { ...d, data: '' };
              });
              return { ...event, data: JSON.stringify(withDelta(payload, { ...delta, reasoning_details: details })) };
            });
          }),
        }),
      },
    },
  },
  {
    id: 'bedrock-stream-keeps-first-signature-piece',
    bug: 'the Bedrock stream reader keeps only the first signature piece of a reasoning block',
    rule: 'signatures-verbatim',
    providers: ['bedrock-claude'],
    scenarios: ['streamed-parallel-tool-calls'],
    patch: {
      families: {
        'bedrock-converse': (original) => ({
          ...original,
          streamCarriers: rewriteStream(
            original,
            firstPieceOnly((payload, event) => {
              if (event.event !== 'contentBlockDelta' || !isPlainObject(payload)) return undefined;
              const delta = isPlainObject(payload.delta) ? payload.delta : {};
              const r = isPlainObject(delta.reasoningContent) ? delta.reasoningContent : {};
              return typeof r.signature === 'string' ? `sig-${String(payload.contentBlockIndex)}` : undefined;
            }),
          ),
        }),
      },
    },
  },
  {
    id: 'anthropic-stream-keeps-first-signature-piece',
    bug: 'the Anthropic stream reader keeps only the first signature_delta of a thinking block',
    rule: 'signatures-verbatim',
    providers: ['anthropic'],
    scenarios: ['streamed-parallel-tool-calls'],
    patch: {
      families: {
        'anthropic-messages': (original) => ({
          ...original,
          streamCarriers: rewriteStream(
            original,
            firstPieceOnly((payload) => {
              if (!isPlainObject(payload) || payload.type !== 'content_block_delta') return undefined;
              const delta = isPlainObject(payload.delta) ? payload.delta : {};
              return delta.type === 'signature_delta' ? `sig-${String(payload.index)}` : undefined;
            }),
          ),
        }),
      },
    },
  },
  {
    id: 'bedrock-arn-not-resolved',
    bug: 'an inference-profile ARN is not resolved to its model, so the per-model replay policy never matches it',
    rule: 'fields-sent',
    providers: ['bedrock-deepseek-r1'],
    scenarios: ['bedrock-deepseek-r1-arn-model-id'],
    patch: {
      // The policy is looked up by the ARN's resource type, the request still names the whole ARN.
      resolve: (original) => (table, target) =>
        target.model.startsWith('arn:')
          ? { ...original(table, { ...target, model: target.model.split('/')[0]! }), target: { ...target } }
          : original(table, target),
    },
  },
  {
    id: 'host-port-kept',
    bug: 'the port stays on the host when it is matched (api.moonshot.ai:443 misses moonshot.ai)',
    rule: 'must-echo',
    providers: ['vllm-local'],
    scenarios: ['host-look-alikes'],
    patch: {
      resolve: resolveWithHostMatcher((host, pattern) => {
        const h = host.toLowerCase();
        return !pattern.startsWith('*-') && (h === pattern || h.endsWith(`.${pattern}`));
      }),
    },
  },
  {
    id: 'bedrock-stream-keeps-first-redacted-piece',
    bug: 'the Bedrock stream reader keeps only the first redactedContent piece of a redacted block',
    rule: 'signatures-verbatim',
    providers: ['bedrock-claude'],
    scenarios: ['streamed-redacted-reasoning'],
    patch: {
      families: {
        'bedrock-converse': (original) => ({
          ...original,
          streamCarriers: rewriteStream(
            original,
            firstPieceOnly((payload, event) => {
              if (event.event !== 'contentBlockDelta' || !isPlainObject(payload)) return undefined;
              const delta = isPlainObject(payload.delta) ? payload.delta : {};
              const r = isPlainObject(delta.reasoningContent) ? delta.reasoningContent : {};
              return typeof r.redactedContent === 'string' ? `red-${String(payload.contentBlockIndex)}` : undefined;
            }),
          ),
        }),
      },
    },
  },
  {
    id: 'responses-stream-keeps-added-encrypted',
    bug: "the Responses stream reader keeps the encrypted_content of output_item.added, which may be incomplete, not the done item's",
    rule: 'signatures-verbatim',
    providers: ['openai-responses'],
    scenarios: ['streamed-parallel-tool-calls'],
    patch: {
      families: {
        'openai-responses': (original) => ({
          ...original,
          streamCarriers: rewriteStream(original, (events) => {
            const added = new Map<string, string>();
            return events.map((event) => {
              const payload = json(event);
              if (!isPlainObject(payload) || !isPlainObject(payload.item)) return event;
              const item = payload.item;
              if (typeof item.encrypted_content !== 'string' || typeof item.id !== 'string') return event;
              if (payload.type === 'response.output_item.added') added.set(item.id, item.encrypted_content);
              if (payload.type !== 'response.output_item.done' || !added.has(item.id)) return event;
              return {
                ...event,
                data: JSON.stringify({ ...payload, item: { ...item, encrypted_content: added.get(item.id) } }),
              };
            });
          }),
        }),
      },
    },
  },
  {
    id: 'resume-drops-native-record',
    bug: 'a resumed session reads messages back without their native record (the column is not read)',
    rule: 'survives-resume',
    providers: ['gemini', 'copilot'],
    patch: {
      resumedMessages: (messages) =>
        messages.map((m) => {
          if (!m.native) return m;
          const { native: _lost, ...rest } = m;
          return rest as Message;
        }),
    },
  },
  {
    id: 'anthropic-drops-redacted-thinking',
    bug: 'the Anthropic request builder leaves out redacted_thinking blocks (it cannot show them, so it drops them)',
    rule: 'signatures-verbatim',
    providers: ['anthropic', 'vertex-anthropic'],
    scenarios: ['redacted-thinking'],
    patch: {
      families: {
        'anthropic-messages': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            const messages = (request.body.messages as Array<Record<string, unknown>>).map((m) =>
              Array.isArray(m.content)
                ? { ...m, content: m.content.filter((b: Record<string, unknown>) => b.type !== 'redacted_thinking') }
                : m,
            );
            return { ...request, body: { ...request.body, messages } };
          },
        }),
      },
    },
  },
  // ---- crossings ----
  {
    id: 'claude-thinking-to-aggregator-loses-signature',
    bug: 'an Anthropic thinking block crossing to a chat aggregator (reasoning.text) loses its signature',
    rule: 'signatures-verbatim',
    providers: ['anthropic', 'vertex-anthropic', 'foundry-anthropic', 'bedrock-claude'],
    patch: {
      families: {
        'openai-chat': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            // Only items stored Anthropic-shaped (a thinking block) lose it: OpenRouter-held ones pass as they are.
            const messages = (request.body.messages as Array<Record<string, unknown>>).map((m, i) =>
              Array.isArray(m.reasoning_details) &&
              history.messages[i]?.reasoning_details?.some((d) => d.type === 'thinking')
                ? {
                    ...m,
                    reasoning_details: m.reasoning_details.map((d: Record<string, unknown>) => {
                      if (d.type !== 'reasoning.text') return d;
                      const { signature: _lost, ...rest } = d;
                      return rest;
                    }),
                  }
                : m,
            );
            return { ...request, body: { ...request.body, messages } };
          },
        }),
      },
    },
  },
  // ---- bugs check caught before issue 28 (kept so the count stays honest) ----
  {
    id: 'strict-route-gets-pad',
    bug: 'the must-echo pad is sent to strict routes too',
    rule: 'strict-schema',
    providers: ['groq', 'mistral'],
    scenarios: ['tool-call-without-stored-reasoning'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        return policy.tier === 'strict' && toolTurn(message) ? { ...out, reasoning_content: PAD, padded: true } : out;
      },
    },
  },
  {
    id: 'reasoning-details-reordered',
    bug: 'reasoning_details are replayed in reverse order',
    rule: 'signatures-verbatim',
    providers: ['openrouter', 'anthropic'],
    patch: {
      selectCarriers: (original) => (message, policy, omit) => {
        const out = original(message, policy, omit);
        return (out.reasoning_details?.length ?? 0) > 1
          ? { ...out, reasoning_details: [...out.reasoning_details!].reverse() }
          : out;
      },
    },
  },
  {
    id: 'signature-dropped-on-read',
    bug: 'reading an aggregator answer drops the signature of its reasoning items',
    rule: 'signatures-verbatim',
    providers: ['openrouter', 'kilo'],
    patch: {
      families: {
        'openai-chat': (original) => ({
          ...original,
          fromResponse: (body, policy) => {
            const parsed = original.fromResponse(body, policy);
            const details = parsed.message.reasoning_details?.map((d) => {
              const { signature: _lost, ...rest } = d as Record<string, unknown>;
              return rest as unknown as ReasoningDetail;
            });
            return details ? { ...parsed, message: { ...parsed.message, reasoning_details: details } } : parsed;
          },
        }),
      },
    },
  },
  {
    id: 'fallback-never-retries',
    bug: 'the fallback records the verdict but never retries',
    rule: 'fallback-recovers',
    providers: ['openai'],
    patch: {
      sendWithFallback: (original) => async (args) => {
        const result = await original(args);
        if (result.attempts.length < 2) return result;
        const first = result.attempts[0]!;
        return { ...result, attempts: [first], response: first.response as { status: number }, retryRejected: true };
      },
    },
  },
  {
    id: 'gemini-signature-dropped-on-read',
    bug: 'reading a Gemini answer drops the thoughtSignature of its function call',
    rule: 'signatures-verbatim',
    providers: ['gemini'],
    patch: {
      families: {
        gemini: (original) => ({
          ...original,
          fromResponse: (body, policy) => {
            const parsed = original.fromResponse(body, policy);
            const native = parsed.message.native;
            if (!native || !Array.isArray(native.fields.parts)) return parsed;
            const parts = (native.fields.parts as Array<Record<string, unknown>>).map(
              ({ thoughtSignature: _lost, ...p }) => p,
            );
            return {
              ...parsed,
              message: { ...parsed.message, native: { ...native, fields: { ...native.fields, parts } } },
            };
          },
        }),
      },
    },
  },
  {
    id: 'builder-edits-history',
    bug: 'the request builder trims the history it was handed (it drops reasoning_details from the stored messages)',
    rule: 'history-unmutated',
    providers: ['openrouter'],
    patch: {
      families: {
        'openai-chat': (original) => ({
          ...original,
          toRequest: (history, policy, options) => {
            const request = original.toRequest(history, policy, options);
            for (const m of history.messages) delete (m as { reasoning_details?: unknown }).reasoning_details;
            return request;
          },
        }),
      },
    },
  },
  // ---- provider-side compaction (issue 39) ----
  {
    id: 'compaction-summarizes-server-compaction',
    bug: "the engine's own compaction summarizes the turn that holds the provider's compaction item, as any old turn",
    rule: 'compaction-kept',
    providers: ['anthropic', 'openai-responses'],
    scenarios: ['server-compaction-session'],
    patch: { holdsServerCompaction: () => () => false },
  },
  {
    id: 'resume-drops-server-compaction',
    bug: 'a resumed session reads a native record back without its verbatim compaction block or item',
    rule: 'compaction-kept',
    providers: ['anthropic', 'openai-responses'],
    scenarios: ['server-compaction-session'],
    patch: {
      resumedMessages: (messages) => messages.map(withoutServerCompaction),
    },
  },
  {
    id: 'compaction-item-to-shared-record-route',
    bug: "every Responses answer is filed under one record key, so xAI is sent OpenAI's compaction item",
    rule: 'compaction-kept',
    providers: ['openai-responses'],
    scenarios: ['compaction-item-route-switch'],
    patch: {
      resolve: (original) => (table, target) => {
        const policy = original(table, target);
        return policy.family === 'openai-responses' ? { ...policy, native: 'openai-responses' } : policy;
      },
    },
  },
  {
    id: 'binding-ignored',
    bug: 'the engine replays every thinking block to a model that binds thinking to its prefix, after the system prompt changed',
    rule: 'binding-respected',
    providers: ['anthropic'],
    scenarios: ['system-prompt-change-under-binding'],
    patch: {
      resolve: (original) => (table, target) => {
        const { bindsThinking: _ignored, ...policy } = original(table, target);
        return policy;
      },
    },
  },
  {
    id: 'binding-model-change-ignored',
    bug: 'the engine sends thinking a binding model wrote to the model a fallback switched to',
    rule: 'binding-respected',
    providers: ['anthropic'],
    scenarios: ['model-change-under-binding'],
    heldOut: true,
    patch: {
      resolve: (original) => (table, target) => {
        const { bindingModels: _ignored, ...policy } = original(table, target);
        return policy;
      },
    },
  },
  {
    id: 'branch-loses-reasoning-content',
    bug: 'a branch copies messages without their reasoning_content',
    rule: 'survives-branch',
    providers: ['deepseek', 'zhipu-glm'],
    patch: { branchWithout: 'reasoning_content' },
  },
];

/** A message whose native record lost its compaction blocks and items (positions kept, verbatim entries gone). */
function withoutServerCompaction(m: Message): Message {
  const fields = m.native?.fields;
  if (!fields) return m;
  const keep = (list: unknown) =>
    Array.isArray(list)
      ? list.filter((e) => {
          const held = isPlainObject(e) ? (e.block ?? e.item) : undefined;
          return !(isPlainObject(held) && held.type === 'compaction');
        })
      : list;
  const out = { ...fields };
  if ('blocks' in fields) out.blocks = keep(fields.blocks);
  if ('items' in fields) out.items = keep(fields.items);
  return { ...m, native: { ...m.native!, fields: out } };
}

function withDelta(payload: unknown, delta: Record<string, unknown>): unknown {
  const p = payload as { choices: Array<Record<string, unknown>> };
  return { ...p, choices: [{ ...p.choices[0], delta }, ...p.choices.slice(1)] };
}
