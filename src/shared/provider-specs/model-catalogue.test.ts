import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InputError } from '../errors/input-error.js';
import { defaultProvidersDir, loadProviderSpec, loadProviderSpecs } from './load-provider-specs.js';
import { answersWithReasoning, catalogueEntry, catalogueModels } from './model-catalogue.js';
import { specHost, type ProviderSpec } from './provider-spec.js';
import { loadRouteTable } from '../route-table/load-route-table.js';
import { resolveRoute } from '../route-table/resolve-route.js';

const dir = mkdtempSync(join(tmpdir(), 'model-catalogue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- edited freely to break it
function bundled(id: string): Record<string, any> {
  return JSON.parse(readFileSync(join(defaultProvidersDir(), `${id}.json`), 'utf8'));
}

function loadEdited(id: string, edit: (spec: ReturnType<typeof bundled>) => void): ProviderSpec {
  const spec = bundled(id);
  edit(spec);
  const file = join(dir, `${id}.json`);
  writeFileSync(file, JSON.stringify(spec, null, 2));
  return loadProviderSpec(file);
}

function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}

const specs = loadProviderSpecs();

describe('the bundled catalogues', () => {
  it.each(specs.map((s) => [s.id, s] as const))('%s has a catalogue that lists its own target model', (_, spec) => {
    expect(catalogueModels(spec).length).toBeGreaterThan(0);
    expect(catalogueEntry(spec, spec.target.model)?.id).toBeDefined();
  });

  it('dates every entry no later than the catalogue was written, and after the first release it lists', () => {
    for (const spec of specs)
      for (const entry of catalogueModels(spec)) {
        expect(entry.observed <= new Date().toISOString().slice(0, 10), `${spec.id} ${entry.id}`).toBe(true);
        if (entry.released) expect(entry.released <= entry.observed, `${spec.id} ${entry.id}`).toBe(true);
      }
  });

  it("answers Groq's Kimi K2 Instruct without reasoning, and its gpt-oss with it", () => {
    const groq = specs.find((s) => s.id === 'groq')!;
    expect(answersWithReasoning(groq, 'moonshotai/kimi-k2-instruct')).toBe(false);
    expect(answersWithReasoning(groq, 'moonshotai/kimi-k2-instruct-0905')).toBe(false);
    expect(answersWithReasoning(groq, 'openai/gpt-oss-120b')).toBe(true);
  });
});

describe('catalogueEntry', () => {
  const anthropic = specs.find((s) => s.id === 'anthropic')!;

  it('finds a model by a dated alias', () => {
    expect(catalogueEntry(anthropic, 'claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
  });

  it('serves every model the catalogue does not name as the spec does: with reasoning', () => {
    const known = new Set(specs.flatMap((s) => catalogueModels(s).flatMap((e) => [e.id, ...(e.aliases ?? [])])));
    fc.assert(
      fc.property(
        fc.constantFrom(...specs),
        fc.string({ minLength: 1 }).filter((m) => !known.has(m)),
        (spec, model) => {
          expect(catalogueEntry(spec, model)).toBeUndefined();
          expect(answersWithReasoning(spec, model)).toBe(true);
        },
      ),
    );
  });
});

describe('the catalogue is checked at load', () => {
  it('refuses an entry without a source, naming its pointer', () => {
    const error = inputErrorOf(() =>
      loadEdited('groq', (s) => {
        s.models.catalogue.entries[1].sources = [];
      }),
    );
    expect(error.pointer).toBe('/models/catalogue/entries/1/sources');
    expect(error.hint).toContain('provider.schema.json');
  });

  it('refuses a reasoning value outside never, optional, always', () => {
    const error = inputErrorOf(() =>
      loadEdited('deepseek', (s) => {
        s.models.catalogue.entries[0].reasoning = 'sometimes';
      }),
    );
    expect(error.pointer).toBe('/models/catalogue/entries/0/reasoning');
  });

  it('refuses a model listed twice, by id or alias, at the later listing', () => {
    let last = 0;
    const error = inputErrorOf(() =>
      loadEdited('anthropic', (s) => {
        last = s.models.catalogue.entries.length - 1;
        s.models.catalogue.entries[last].aliases = [s.models.catalogue.entries[0].id];
      }),
    );
    expect(error.pointer).toBe(`/models/catalogue/entries/${last}/aliases/0`);
    expect(error.problem).toContain('already listed by entry 0');
  });

  it('refuses carriers on a model that never reasons', () => {
    const error = inputErrorOf(() =>
      loadEdited('groq', (s) => {
        const kimi = s.models.catalogue.entries.find((e: { id: string }) => e.id === 'moonshotai/kimi-k2-instruct');
        kimi.carriers = ['reasoning'];
      }),
    );
    expect(error.problem).toBe('a model that never reasons lists reasoning carriers');
  });

  it("refuses a carrier the spec's answers do not hold", () => {
    const error = inputErrorOf(() =>
      loadEdited('deepseek', (s) => {
        s.models.catalogue.entries[0].carriers = ['reasoning_details'];
      }),
    );
    expect(error.pointer).toBe('/models/catalogue/entries/0/carriers/0');
    expect(error.hint).toContain('reasoning_content');
  });

  it('refuses a default on a model that is not optional', () => {
    const error = inputErrorOf(() =>
      loadEdited('groq', (s) => {
        s.models.catalogue.entries[0].reasoningByDefault = true;
      }),
    );
    expect(error.pointer).toBe('/models/catalogue/entries/0/reasoningByDefault');
  });

  it('refuses a model the spec refuses outright', () => {
    const error = inputErrorOf(() =>
      loadEdited('groq', (s) => {
        s.models.catalogue.entries[0].aliases = ['qwen-qwq-32b'];
      }),
    );
    expect(error.pointer).toBe('/models/catalogue/entries/0/aliases/0');
    expect(error.problem).toContain('models.refuses');
  });
});

describe("the route table's model rules agree with the catalogue", () => {
  const table = loadRouteTable();
  // The Responses row asks every model for its reasoning (include, reasoning) unless withoutReasoning names it
  // (decision 0032): a model the catalogue says never reasons must be named there, and one that reasons must not.
  it.each(['openai-responses'])('%s: withoutReasoning names exactly the models that never reason', (id) => {
    const spec = specs.find((s) => s.id === id)!;
    for (const entry of catalogueModels(spec)) {
      const policy = resolveRoute(table, { provider: spec.target.provider, host: specHost(spec), model: entry.id });
      expect(policy.withoutReasoning === true, `${entry.id} (${entry.reasoning})`).toBe(entry.reasoning === 'never');
    }
  });
});
