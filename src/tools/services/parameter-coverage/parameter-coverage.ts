import { parameterCoverage, type ParameterCoverageCell } from '../../../shared/provider-specs/parameter-table.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';

/** Cells of catalogued reasoning models × documented parameters, by how they stand. */
export interface ParameterCoverageCounts {
  /** Catalogued models that reason (optional or always). */
  models: number;
  /** models × the parameters the spec documents. */
  cells: number;
  sourced: number;
  knownNone: number;
  missing: number;
}

/** The parameter tables held against the catalogues, as the report and `real-world` show them. */
export interface ParameterCoverageSection {
  total: ParameterCoverageCounts;
  /** Reasoning models with a sourced row for every parameter their provider documents. */
  fullyCovered: { models: number; of: number };
  providers: Array<{ provider: string; documented: string[] } & ParameterCoverageCounts>;
  /** Each cell without a sourced row: `known-none` with its stated reason, or `missing`. */
  gaps: Array<{ provider: string; model: string; parameter: string; state: 'known-none' | 'missing'; reason?: string }>;
}

function counts(cells: readonly ParameterCoverageCell[]): Omit<ParameterCoverageCounts, 'models'> {
  return {
    cells: cells.length,
    sourced: cells.filter((c) => c.state === 'sourced').length,
    knownNone: cells.filter((c) => c.state === 'known-none').length,
    missing: cells.filter((c) => c.state === 'missing').length,
  };
}

/**
 * Coverage of every spec's parameter table: per provider, catalogued reasoning models × documented parameters with
 * a sourced row; a spec that documents no parameter counts its reasoning models as not covered.
 */
export function parameterCoverageSection(specs: readonly ProviderSpec[]): ParameterCoverageSection {
  const providers: ParameterCoverageSection['providers'] = [];
  const gaps: ParameterCoverageSection['gaps'] = [];
  let fully = 0;
  let of = 0;
  for (const spec of [...specs].sort((a, b) => a.id.localeCompare(b.id))) {
    const cells = parameterCoverage(spec);
    const models = (spec.models?.catalogue?.entries ?? []).filter((e) => e.reasoning !== 'never').map((e) => e.id);
    const documented = [...new Set((spec.models?.parameters?.documented ?? []).map((d) => d.parameter))];
    of += models.length;
    fully += models.filter(
      (m) => documented.length > 0 && cells.every((c) => c.model !== m || c.state === 'sourced'),
    ).length;
    providers.push({ provider: spec.id, documented, models: models.length, ...counts(cells) });
    for (const c of cells)
      if (c.state !== 'sourced')
        gaps.push({
          provider: spec.id,
          model: c.model,
          parameter: c.parameter,
          state: c.state,
          ...(c.reason !== undefined ? { reason: c.reason } : {}),
        });
  }
  const all = providers.reduce(
    (t, p) => ({
      models: t.models + p.models,
      cells: t.cells + p.cells,
      sourced: t.sourced + p.sourced,
      knownNone: t.knownNone + p.knownNone,
      missing: t.missing + p.missing,
    }),
    { models: 0, cells: 0, sourced: 0, knownNone: 0, missing: 0 },
  );
  return { total: all, fullyCovered: { models: fully, of }, providers, gaps };
}

const percent = (n: number, of: number) => (of === 0 ? '-' : `${Math.round((100 * n) / of)}%`);

/** The section as `real-world` prints it: one line per provider, the totals, then every gap with its reason. */
export function formatParameterCoverage(section: ParameterCoverageSection): string {
  const width = Math.max(...section.providers.map((p) => p.provider.length), 5);
  const line = (name: string, c: ParameterCoverageCounts, documented?: string[]) =>
    `${name.padEnd(width)}  ${String(c.sourced).padStart(3)}/${String(c.cells).padEnd(3)} sourced (${percent(c.sourced, c.cells)})` +
    `${c.knownNone ? `  ${c.knownNone} known none` : ''}${c.missing ? `  ${c.missing} missing` : ''}` +
    `  ${c.models} reasoning models${documented ? ` × ${documented.length ? documented.join(', ') : 'no documented parameter'}` : ''}`;
  const { fullyCovered: f } = section;
  return [
    ...section.providers.map((p) => line(p.provider, p, p.documented)),
    line('total', section.total),
    `reasoning models with a sourced row for every documented parameter: ${f.models}/${f.of} (${percent(f.models, f.of)})`,
    ...section.gaps.map(
      (g) =>
        `  ${g.state === 'known-none' ? 'known none' : 'missing'}: ${g.provider} ${g.model} ${g.parameter}${g.reason ? ` (${g.reason})` : ''}`,
    ),
  ].join('\n');
}
