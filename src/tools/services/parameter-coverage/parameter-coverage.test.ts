import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ParameterRow, ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { schemaValidator } from '../../../shared/validation/validate.js';
import { formatParameterCoverage, parameterCoverageSection } from './parameter-coverage.js';

const specs = loadProviderSpecs();
const groq = specs.find((s) => s.id === 'groq')!;

/** Groq with its catalogue and these rows only. */
function groqWith(rows: ParameterRow[], documented: Array<'effort' | 'thinking'> = ['effort']): ProviderSpec {
  return {
    ...groq,
    models: {
      ...groq.models,
      parameters: {
        documented: documented.map((parameter) => ({ parameter, pointer: '/x', sources: ['https://example.org'] })),
        rows,
      },
    },
  };
}

const reasoningModels = (groq.models?.catalogue?.entries ?? []).filter((e) => e.reasoning !== 'never');

describe('parameter coverage against the catalogues', () => {
  it('counts reasoning models × documented parameters as sourced, known none or missing', () => {
    const spec = groqWith(
      [
        {
          parameter: 'effort',
          models: '^openai/',
          pointer: '/reasoning_effort',
          accepts: ['low'],
          sources: ['https://a.example'],
          observed: '2026-12-07',
        },
        { parameter: 'effort', models: '^qwen/', observed: '2026-12-07', knownNone: 'nothing says' },
      ],
      ['effort', 'thinking'],
    );
    const section = parameterCoverageSection([spec]);
    const gpt = reasoningModels.filter((e) => e.id.startsWith('openai/')).length;
    const qwen = reasoningModels.filter((e) => e.id.startsWith('qwen/')).length;
    expect(section.total).toEqual({
      models: reasoningModels.length,
      cells: reasoningModels.length * 2,
      sourced: gpt,
      knownNone: qwen,
      missing: reasoningModels.length * 2 - gpt - qwen,
    });
    // No model has a row for thinking, so none is covered for every documented parameter.
    expect(section.fullyCovered).toEqual({ models: 0, of: reasoningModels.length });
    expect(section.gaps.filter((g) => g.state === 'known-none').map((g) => g.reason)).toEqual(
      Array(qwen).fill('nothing says'),
    );
    expect(formatParameterCoverage(section)).toMatch(/known none: groq qwen\/\S+ effort \(nothing says\)/);
  });

  it('a spec that documents no parameter covers none of its reasoning models', () => {
    const bare: ProviderSpec = { ...groq, models: { ...groq.models, parameters: undefined } };
    const section = parameterCoverageSection([bare]);
    expect(section.total.cells).toBe(0);
    expect(section.fullyCovered).toEqual({ models: 0, of: reasoningModels.length });
  });

  it("the bundled tables' section validates against the report schema's realWorld.parameters", () => {
    const section = parameterCoverageSection(specs);
    const validate = schemaValidator('compatibility.schema.json');
    validate({ realWorld: { total: {}, providers: [], disagreements: [], parameters: section } });
    // Only the parameters member is judged here (the rest of a report is built elsewhere): an unknown member or a
    // bad field in it fails.
    const about = (validate.errors ?? []).filter(
      (e) =>
        e.instancePath.startsWith('/realWorld/parameters') ||
        (e.keyword === 'additionalProperties' && e.params.additionalProperty === 'parameters'),
    );
    expect(about).toEqual([]);
    expect(section.providers.map((p) => p.provider)).toEqual(specs.map((s) => s.id).sort());
  });
});
