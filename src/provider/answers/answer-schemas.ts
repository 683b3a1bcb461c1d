import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from '../../shared/project-root.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import { readJsonFile } from '../../shared/validation/read-json.js';
import { assertValid, describeSchemaErrors, inlineValidator } from '../../shared/validation/validate.js';
import type { RenderedAnswer } from './answer-renderer.js';

/**
 * One family's answer schemas (specs/responses/<id>.json), built by `npm run specs:import` from the provider's own
 * published definition: what every answer body must hold and what each stream event must.
 */
export interface AnswerSchemas {
  id: string;
  family: string;
  /** Only these provider specs; they win over the family's own. */
  specs?: string[];
  /** Another project's published schema: answers are checked against it as well, never judged by it. */
  suite?: true;
  eventsKeyedBy: 'data' | 'event-name';
  schemaSource: { definition: string; pin: string; operation: string };
  response: Record<string, unknown>;
  event: Record<string, unknown>;
  /** The answers of the API's other endpoints (no stream), by path: /responses/compact. */
  endpoints?: Record<string, { operation: string; response: Record<string, unknown> }>;
}

/** Where an answer departs from its definition: the body, or the n-th stream event. */
export interface AnswerProblem {
  where: 'body' | `event ${number}`;
  pointer: string;
  problem: string;
}

let loaded: AnswerSchemas[] | undefined;
let bundledDir: string | undefined;
/** specs/responses, joined once: a follow answer asks for its schemas on every render (two joins were ~5% of one). */
const bundled = (): string => (bundledDir ??= join(specsDir(), 'responses'));

/** Every answer-schemas file under `dir` (specs/responses), checked against its own schema. */
export function loadAnswerSchemas(dir: string = bundled()): AnswerSchemas[] {
  if (loaded && dir === bundled()) return loaded;
  const all = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) =>
          assertValid<AnswerSchemas>(readJsonFile(join(dir, f)), 'response-schemas.schema.json', join(dir, f)),
        )
    : [];
  if (dir === bundled()) loaded = all;
  return all;
}

/** The schemas a spec's answers are judged by: its own (a provider that publishes one), else its family's. */
export function answerSchemasFor(
  spec: Pick<ProviderSpec, 'id' | 'family'>,
  all: readonly AnswerSchemas[] = loadAnswerSchemas(),
): AnswerSchemas | undefined {
  const judges = all.filter((s) => !s.suite);
  return judges.find((s) => s.specs?.includes(spec.id)) ?? judges.find((s) => s.family === spec.family && !s.specs);
}

/** Other projects' published schemas a spec's answers are checked against as well (Open Responses for OpenAI's). */
export function suiteSchemasFor(
  spec: Pick<ProviderSpec, 'id' | 'family'>,
  all: readonly AnswerSchemas[] = loadAnswerSchemas(),
): AnswerSchemas[] {
  return all.filter((s) => s.suite && s.family === spec.family && (!s.specs || s.specs.includes(spec.id)));
}

/**
 * The value a stream event's schema judges: its data, or `{<event name>: data}` for an event-stream union (an event
 * written without its name, as a recording of the SDK's parsed events is, already has that shape).
 */
function eventValue(event: SseEvent, keyedBy: AnswerSchemas['eventsKeyedBy']): unknown {
  const data: unknown = JSON.parse(event.data);
  return keyedBy === 'event-name' && event.event !== undefined ? { [event.event]: data } : data;
}

/**
 * Every place a rendered answer departs from its family's answer schemas: the body, then each stream event (a
 * `[DONE]` terminator is framing, not an event). Empty when it conforms.
 */
export function answerProblems(rendered: RenderedAnswer, schemas: AnswerSchemas): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const body = inlineValidator(schemas.response);
  if (!body(rendered.body)) problems.push({ where: 'body', ...describeSchemaErrors(body.errors ?? []) });
  const event = inlineValidator(schemas.event);
  rendered.stream.forEach((e, i) => {
    if (e.data === '[DONE]') return;
    if (!event(eventValue(e, schemas.eventsKeyedBy)))
      problems.push({ where: `event ${i}`, ...describeSchemaErrors(event.errors ?? []) });
  });
  return problems;
}

/**
 * Where the answer body of another endpoint of the API (`path`, e.g. /responses/compact) departs from the schema its
 * operation's answer type gives; empty when it conforms. Undefined when the definition types no answer for `path`.
 */
export function endpointAnswerProblems(
  path: string,
  body: unknown,
  schemas: AnswerSchemas,
): AnswerProblem[] | undefined {
  const endpoint = schemas.endpoints?.[path];
  if (!endpoint) return undefined;
  const validate = inlineValidator(endpoint.response);
  return validate(body) ? [] : [{ where: 'body', ...describeSchemaErrors(validate.errors ?? []) }];
}
