import type { CatalogueEntry, ProviderSpec } from './provider-spec.js';

const byId = new WeakMap<ProviderSpec, Map<string, CatalogueEntry>>();

/** The catalogue's entries by every id and alias they answer to. */
function index(spec: ProviderSpec): Map<string, CatalogueEntry> {
  let map = byId.get(spec);
  if (!map) {
    map = new Map();
    for (const entry of spec.models?.catalogue?.entries ?? [])
      for (const id of [entry.id, ...(entry.aliases ?? [])]) if (!map.has(id)) map.set(id, entry);
    byId.set(spec, map);
  }
  return map;
}

/**
 * The catalogue entry for the model a request names, by its id or one of its aliases; undefined for a model the
 * catalogue does not name, which is still served with the spec's own rules (a model released tomorrow keeps working).
 */
export function catalogueEntry(spec: ProviderSpec, model: string | undefined): CatalogueEntry | undefined {
  return model === undefined ? undefined : index(spec).get(model);
}

/** Every model id the catalogue lists, in its order (aliases not repeated): what a models endpoint lists. */
export function catalogueModels(spec: ProviderSpec): CatalogueEntry[] {
  return spec.models?.catalogue?.entries ?? [];
}

/**
 * Whether the answer to this model carries reasoning at all: false only when the catalogue says the model never
 * reasons. An unlisted model answers as the spec's target does.
 */
export function answersWithReasoning(spec: ProviderSpec, model: string | undefined): boolean {
  return catalogueEntry(spec, model)?.reasoning !== 'never';
}

/** One catalogue problem, in the spec lint's shape. */
export interface CatalogueProblem {
  pointer: string;
  problem: string;
  hint: string;
}

/** The catalogue's own consistency, beyond its schema (part of the spec lint). */
export function lintModelCatalogue(spec: ProviderSpec): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const entries = spec.models?.catalogue?.entries ?? [];
  const seen = new Map<string, number>();
  const answered = new Set(spec.response.carriers);
  entries.forEach((entry, i) => {
    const at = `/models/catalogue/entries/${i}`;
    [entry.id, ...(entry.aliases ?? [])].forEach((id, k) => {
      const first = seen.get(id);
      if (first !== undefined)
        problems.push({
          pointer: k === 0 ? `${at}/id` : `${at}/aliases/${k - 1}`,
          problem: `model id "${id}" is already listed by entry ${first}`,
          hint: 'list each model once; put its other ids under that entry’s aliases',
        });
      else seen.set(id, i);
    });
    if (entry.reasoning === 'never' && entry.carriers.length > 0)
      problems.push({
        pointer: `${at}/carriers`,
        problem: 'a model that never reasons lists reasoning carriers',
        hint: 'leave carriers empty, or say the model reasons (optional or always)',
      });
    if (entry.reasoningByDefault !== undefined && entry.reasoning !== 'optional')
      problems.push({
        pointer: `${at}/reasoningByDefault`,
        problem: `reasoningByDefault on a model whose reasoning is "${entry.reasoning}"`,
        hint: 'only an optional model has a default; drop the key',
      });
    entry.carriers.forEach((carrier, c) => {
      if (!answered.has(carrier))
        problems.push({
          pointer: `${at}/carriers/${c}`,
          problem: `carrier "${carrier}" is not one the spec's answers hold`,
          hint: `use one of response.carriers: ${[...answered].join(', ') || '(none)'}`,
        });
    });
    if (spec.models?.serves !== undefined && !safeTest(spec.models.serves, entry.id))
      problems.push({
        pointer: `${at}/id`,
        problem: `model "${entry.id}" does not match the spec's models.serves`,
        hint: 'a catalogue lists only models this endpoint serves',
      });
    [entry.id, ...(entry.aliases ?? [])].forEach((id, k) => {
      const refused = (spec.models?.refuses ?? []).findIndex(
        (r) => r.whenBody === undefined && r.streamOnly !== true && safeTest(r.match, id),
      );
      if (refused >= 0)
        problems.push({
          pointer: k === 0 ? `${at}/id` : `${at}/aliases/${k - 1}`,
          problem: `model "${id}" is listed, yet models.refuses/${refused} refuses every request for it`,
          hint: 'a retired model leaves the catalogue; keep it under models.refuses only',
        });
    });
  });
  return problems;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    // A bad pattern is reported by the spec lint itself.
    return false;
  }
}
