import { createHash } from 'node:crypto';
import { answerRenderers } from '../answer-renderers.js';
import type { RenderedAnswer } from '../answer-renderer.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../../shared/scenarios/scenario.js';
import { endsWithToolResult, offeredTools, toolCallIdPrefix } from './offered-tools.js';
import { KeptSamples } from './kept-samples.js';
import { passesCompactionTrigger } from './compaction-trigger.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { answerForModel, geminiIncludesThoughts, requestAsksReasoning } from '../answer-for-model.js';
import { rememberResponse } from '../stored-responses.js';
import { formattedContent, requestedFormat } from '../structured-output.js';

/** The scenario name follow-mode answers are rendered under (ids and signatures are derived from it). */
export const FOLLOW_SCENARIO = 'follow-client';

export interface FollowAnswer {
  answer: ScriptedAnswer;
  rendered: RenderedAnswer;
  /** rendered.body as sent; made on first use (a streamed answer sends its events, never this). */
  readonly json: string;
  /** `json` as UTF-8 bytes, made once on first use: an agent's loop gets the same answer many times. */
  readonly bytes: Buffer;
  /** The tool the answer calls, if any, for the log. */
  tool?: string;
}

/**
 * A 32-bit seed from the run's seed and what makes this turn this turn: same conversation, same answer. Kept per input
 * (a run meets a few calls and tools): two SHA-256 digests were about 6% of a fresh tool-call answer.
 */
export function turnSeed(seed: number, call: number, tool: string): number {
  const input = `${seed}\u0000${call}\u0000${tool}`;
  let made = turnSeeds.get(input);
  if (made === undefined) {
    made = createHash('sha256').update(input).digest().readUInt32BE(0);
    if (turnSeeds.size >= MAX_TURN_SEEDS) turnSeeds.delete(turnSeeds.keys().next().value!);
    turnSeeds.set(input, made);
  }
  return made;
}
const MAX_TURN_SEEDS = 4096;
const turnSeeds = new Map<string, number>();

/**
 * A digest of the conversation so far (instructions and every message, content or input item), so each answer's
 * reasoning text, ids and signatures are fresh turn after turn, as a real model's are, yet the same request always
 * gets the same answer (reproducible runs). A client that de-duplicates reasoning by its text must not see turn 2's
 * reasoning as turn 1's.
 */
export function conversationDigest(specId: string, body: unknown): string {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const conversation = [specId, b.system, b.systemInstruction, b.instructions, b.messages ?? b.contents ?? b.input];
  return createHash('sha256').update(JSON.stringify(conversation)).digest('hex').slice(0, 12);
}

/**
 * The model's move when no scenario scripts it: on a fresh user turn with tools on offer, reason and
 * call one of *the client's* tools (picked and filled from its schema by a seeded generator);
 * after tool results, or with no tools, reason and answer in words. So any agent's loop, whatever
 * its tools are called, runs one tool round per user turn and ends.
 */
export function followAnswer(
  spec: ProviderSpec,
  body: unknown,
  call: number,
  seed: number,
  model?: string,
): FollowAnswer | undefined {
  const render = answerRenderers[spec.family];
  if (!render) return undefined;
  const tools = offeredTools(spec.family, body);
  const digest = conversationDigest(spec.id, body);
  const asked = model ?? (isPlainObject(body) && typeof body.model === 'string' ? body.model : undefined);
  // A client retrying the same request gets the same answer without rendering it again. What the
  // renderers read off the request beyond the conversation (Responses `store` and `include`, Anthropic's
  // `thinking.display`) is part of the key: two clients asking the same thing with other options get other answers.
  const shaping = isPlainObject(body)
    ? JSON.stringify([
        body.store,
        body.include,
        isPlainObject(body.thinking) ? body.thinking.display : undefined,
        // Bound thinking (Fable 5.1+): the signature covers the tools, and the answer reports what a check dropped.
        isPlainObject(body.thinking) ? body.thinking.block_binding : undefined,
        body.tools,
        // Server compaction asked for, and its trigger.
        body.context_management,
        requestAsksReasoning(spec.family, body),
        geminiIncludesThoughts(body),
        requestedFormat(spec.family, body),
      ])
    : '';
  const key = `${spec.id}\u0000${call}\u0000${seed}\u0000${digest}\u0000${asked}\u0000${endsWithToolResult(spec.family, body)}\u0000${JSON.stringify(tools)}\u0000${shaping}`;
  const cached = answers.get(key);
  // A stored response (Responses `store` true, the default) can be retrieved by id later.
  if (cached) {
    rememberResponse(spec, body, cached.rendered.body);
    return cached;
  }
  const made = makeAnswer(spec, render, tools, body, call, seed, digest, asked);
  rememberResponse(spec, body, made.rendered.body);
  if (answers.size >= MAX_CACHED) answers.delete(answers.keys().next().value!);
  answers.set(key, made);
  return made;
}

/**
 * A request without tools whose last message asks for a summary: an agent compacting its conversation with a
 * summarising model call. It gets a summary in words, as a model would write one.
 */
export function asksForSummary(body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  const conversation = body.messages ?? body.input ?? body.contents;
  const last = Array.isArray(conversation) ? conversation.at(-1) : conversation;
  return /\bsummar(?:y|i[sz]e)/i.test(JSON.stringify(last ?? ''));
}

const MAX_CACHED = 1024;
const answers = new Map<string, FollowAnswer>();
/** Tool arguments and structured words, drawn once per schema and seed (kept-samples.ts). */
const samples = new KeptSamples();

function makeAnswer(
  spec: ProviderSpec,
  render: NonNullable<(typeof answerRenderers)[keyof typeof answerRenderers]>,
  tools: ReturnType<typeof offeredTools>,
  body: unknown,
  call: number,
  seed: number,
  digest: string,
  model: string | undefined,
): FollowAnswer {
  let answer: ScriptedAnswer;
  let tool: string | undefined;
  if (tools.length > 0 && !endsWithToolResult(spec.family, body)) {
    const chosen = tools[turnSeed(seed, call, '') % tools.length]!;
    tool = chosen.name;
    const sampled = samples.get(chosen.schema, turnSeed(seed, call, chosen.name));
    // Anthropic and Bedrock answer with an input object: a schema whose root is not an object still gets one.
    const args = typeof sampled === 'object' && sampled !== null && !Array.isArray(sampled) ? sampled : {};
    answer = {
      content: null,
      reasoning: `Turn ${digest}: the user needs something only ${chosen.name} can tell; calling it.`,
      tool_calls: [
        {
          id: `${toolCallIdPrefix(spec.family)}${call}_0`,
          type: 'function',
          function: { name: chosen.name, arguments: JSON.stringify(args) },
        },
      ],
    };
  } else {
    const summary = tools.length === 0 && asksForSummary(body);
    const words =
      tools.length > 0
        ? 'Done: the tool results answer the question.'
        : summary
          ? `Summary of conversation ${digest}: the user asked for tool calls, and their results were reported back.`
          : 'Hello from the reasoning-replay mock.';
    // Structured output: the words are JSON that satisfies the requested schema (or the enum value asked for).
    const format = requestedFormat(spec.family, body);
    answer = {
      content: format
        ? formattedContent(
            format,
            format.kind === 'json-object' ? undefined : samples.get(format.schema, turnSeed(seed, call, 'format')),
            words,
          )
        : words,
      reasoning:
        tools.length > 0
          ? `Turn ${digest}: the tool results are in; summarise them.`
          : summary
            ? `Turn ${digest}: the user wants the conversation so far summarised for later.`
            : `Turn ${digest}: a plain answer is enough here.`,
    };
  }
  // Past the trigger it set, a request that asked for server compaction gets an answer opening with a compaction block.
  if (passesCompactionTrigger(spec.family, body))
    answer = { ...answer, compaction: `Summary of the conversation before turn ${digest}.` };
  // The model catalogue decides whether this model reasons for this request, and which carriers its answer holds.
  const shaped = answerForModel(spec, model, answer, isPlainObject(body) ? body : undefined);
  answer = shaped.answer;
  const rendered = render(answer, {
    spec: shaped.spec,
    call,
    scenario: `${FOLLOW_SCENARIO}/${digest}`,
    ...(model ? { model } : {}),
    ...(isPlainObject(body) ? { request: body } : {}),
  });
  return new RenderedFollowAnswer(answer, rendered, tool);
}

/**
 * A follow answer whose JSON text and bytes are made when first read: a streamed request is answered with the
 * rendered events, and serializing the unstreamed body too cost a fresh streamed request about 15 µs for nothing.
 */
class RenderedFollowAnswer implements FollowAnswer {
  private text: string | undefined;
  private buffer: Buffer | undefined;
  readonly tool?: string;

  constructor(
    readonly answer: ScriptedAnswer,
    readonly rendered: RenderedAnswer,
    tool: string | undefined,
  ) {
    if (tool) this.tool = tool;
  }

  get json(): string {
    return (this.text ??= JSON.stringify(this.rendered.body));
  }

  get bytes(): Buffer {
    return (this.buffer ??= Buffer.from(this.json));
  }
}
