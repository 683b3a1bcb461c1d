import type { BodyCondition, ForbidRule, ParameterRow, ProviderSpec, ReasoningParameter } from './provider-spec.js';
import { badRegExp } from './bad-reg-exp.js';

const compiled = new WeakMap<ProviderSpec, ForbidRule[]>();

/** The dotted forbid path of an RFC 6901 pointer (`/reasoning/effort` is `reasoning.effort`). */
function pathOf(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/** The tests of the value at the row's pointer that make it refused: each one alone refuses. */
function refusedWhen(row: ParameterRow & { pointer: string }): BodyCondition[] {
  const { pointer } = row;
  return [
    ...(row.accepts ? [{ pointer, notIn: row.accepts }] : []),
    ...(row.refuses ? [{ pointer, in: row.refuses }] : []),
    ...(row.atLeast !== undefined ? [{ pointer, below: row.atLeast }] : []),
    ...(row.atMost !== undefined ? [{ pointer, above: row.atMost }] : []),
  ];
}

/**
 * The parameter table's rows as forbids scoped to their models: a value outside what a row accepts (or one it
 * refuses, or a number out of its bounds), under the row's own conditions, is answered with the row's rejection.
 * A row without a rejection documents acceptance only and refuses nothing; a `knownNone` row refuses nothing.
 */
export function parameterForbids(spec: ProviderSpec): ForbidRule[] {
  const hit = compiled.get(spec);
  if (hit) return hit;
  const out = (spec.models?.parameters?.rows ?? []).flatMap((row): ForbidRule[] => {
    const { pointer, rejection } = row;
    if (pointer === undefined || rejection === undefined) return [];
    return refusedWhen({ ...row, pointer }).map((test) => ({
      path: pathOf(pointer),
      models: row.models,
      whenBody: [test, ...(row.whenBody ?? [])],
      rejection,
      rule: 'provider-accepts',
      notes: `${row.parameter} outside what ${row.models} takes`,
    }));
  });
  compiled.set(spec, out);
  return out;
}

/** How one catalogued reasoning model stands for one documented parameter. */
export type CoverageState = 'sourced' | 'known-none' | 'missing';

export interface ParameterCoverageCell {
  model: string;
  parameter: ReasoningParameter;
  state: CoverageState;
  /** The row's stated reason, for `known-none`. */
  reason?: string;
}

/**
 * Catalogued reasoning models × the parameters the spec documents: `sourced` when a row with sources names the
 * model's family for that parameter, `known-none` when only a row stating why no source is known does, else
 * `missing`. A model that never reasons is not counted.
 */
export function parameterCoverage(spec: ProviderSpec): ParameterCoverageCell[] {
  const table = spec.models?.parameters;
  const documented = [...new Set((table?.documented ?? []).map((d) => d.parameter))];
  const models = (spec.models?.catalogue?.entries ?? []).filter((e) => e.reasoning !== 'never');
  return models.flatMap((entry) =>
    documented.map((parameter): ParameterCoverageCell => {
      const rows = (table?.rows ?? []).filter(
        (r) =>
          r.parameter === parameter && [entry.id, ...(entry.aliases ?? [])].some((id) => new RegExp(r.models).test(id)),
      );
      if (rows.some((r) => r.knownNone === undefined && (r.sources?.length ?? 0) > 0))
        return { model: entry.id, parameter, state: 'sourced' };
      const none = rows.find((r) => r.knownNone !== undefined);
      return none
        ? { model: entry.id, parameter, state: 'known-none', reason: none.knownNone! }
        : { model: entry.id, parameter, state: 'missing' };
    }),
  );
}

/** One parameter-table problem, in the spec lint's shape. */
export interface ParameterTableProblem {
  pointer: string;
  problem: string;
  hint: string;
}

/** What the schema cannot check of a parameter table: regular expressions, names, documented parameters. */
export function lintParameterTable(spec: ProviderSpec): ParameterTableProblem[] {
  const table = spec.models?.parameters;
  if (!table) return [];
  const problems: ParameterTableProblem[] = [];
  const documented = new Set(table.documented.map((d) => d.parameter));
  table.rows.forEach((row, i) => {
    const at = `/models/parameters/rows/${i}`;
    const bad = badRegExp(row.models);
    if (bad !== undefined)
      problems.push({
        pointer: `${at}/models`,
        problem: `not a regular expression: ${bad}`,
        hint: 'write a JavaScript regular expression on the model id',
      });
    if (row.rejection !== undefined && spec.rejections[row.rejection] === undefined)
      problems.push({
        pointer: `${at}/rejection`,
        problem: `rejection "${row.rejection}" is not defined in the spec's rejections`,
        hint: `define it under /rejections with its status, wording and sources, or name one of: ${Object.keys(spec.rejections).join(', ')}`,
      });
    if (!documented.has(row.parameter))
      problems.push({
        pointer: `${at}/parameter`,
        problem: `parameter "${row.parameter}" is not among the documented ones`,
        hint: 'list it under /models/parameters/documented with the page that documents it',
      });
  });
  return problems;
}
