import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { answerRenderers } from '../../../provider/answers/answer-renderers.js';
import type { AnswerRenderer } from '../../../provider/answers/answer-renderer.js';
import { answerProblems, suiteSchemasFor, type AnswerSchemas } from '../../../provider/answers/answer-schemas.js';
import { ANSWER_KINDS } from '../../../provider/answers/answer-kinds.js';

/**
 * How the mocks' answers fare against another project's published schema (specs/responses/ files marked `suite`,
 * such as Open Responses): every answer kind below, for each spec the schema covers, as a body and as its stream.
 * Computed in process from the renderers, in well under a second, so the report can show it on every run.
 */
export interface SuiteFigures {
  /** The answer-schemas file (`open-responses`) and the pinned source it was distilled from. */
  schema: string;
  pin: string;
  specs: string[];
  bodies: { checked: number; conforming: number };
  events: { checked: number; conforming: number };
  /** The first departures, `spec kind: where pointer problem`. */
  departures: string[];
}

/** Requests as clients send them, as far as renderers read them: the API's defaults, stored, unstored. */
const REQUESTS: ReadonlyArray<Record<string, unknown>> = [
  {},
  { store: true, include: ['reasoning.encrypted_content'] },
  { store: false, include: ['reasoning.encrypted_content'] },
];

const MAX_DEPARTURES = 5;

/** The figures of every suite schema, over the specs it covers (none when no spec has one). */
export function suiteFigures(
  specs: readonly ProviderSpec[],
  renderers: Readonly<Record<string, AnswerRenderer | undefined>> = answerRenderers,
): SuiteFigures[] {
  const bySchema = new Map<string, { schemas: AnswerSchemas; specs: ProviderSpec[] }>();
  for (const spec of specs) {
    if (!renderers[spec.family]) continue;
    for (const schemas of suiteSchemasFor(spec)) {
      const entry = bySchema.get(schemas.id) ?? { schemas, specs: [] };
      entry.specs.push(spec);
      bySchema.set(schemas.id, entry);
    }
  }
  return [...bySchema.values()].map(({ schemas, specs: covered }) => {
    const figures: SuiteFigures = {
      schema: schemas.id,
      pin: schemas.schemaSource.pin,
      specs: covered.map((s) => s.id),
      bodies: { checked: 0, conforming: 0 },
      events: { checked: 0, conforming: 0 },
      departures: [],
    };
    for (const spec of covered)
      for (const [kind, answer] of Object.entries(ANSWER_KINDS))
        for (const request of REQUESTS) {
          const rendered = renderers[spec.family]!(answer, { spec, call: 1, scenario: 'suite-figures', request });
          const problems = answerProblems(rendered, schemas);
          const events = rendered.stream.filter((e) => e.data !== '[DONE]').length;
          const badEvents = new Set(problems.filter((p) => p.where !== 'body').map((p) => p.where)).size;
          figures.bodies.checked++;
          if (!problems.some((p) => p.where === 'body')) figures.bodies.conforming++;
          figures.events.checked += events;
          figures.events.conforming += events - badEvents;
          for (const p of problems)
            if (figures.departures.length < MAX_DEPARTURES)
              figures.departures.push(`${spec.id} ${kind}: ${p.where} ${p.pointer} ${p.problem}`);
        }
    return figures;
  });
}
