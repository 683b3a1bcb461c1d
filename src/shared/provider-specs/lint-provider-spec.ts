import type { ProviderSpec, Rejection } from './provider-spec.js';
import { lintModelCatalogue } from './model-catalogue.js';
import { lintParameterTable } from './parameter-table.js';
import { badRegExp } from './bad-reg-exp.js';

/** One thing wrong with a provider spec beyond its JSON Schema. */
export interface SpecLintProblem {
  pointer: string;
  problem: string;
  hint: string;
}

/**
 * Placeholders a mock knows how to fill. A rejection body holding any other `{name}` would reach a
 * client unfilled (`messages.{index}.{role}.reasoning` for a top-level key), so the lint refuses it.
 */
export const KNOWN_PLACEHOLDERS = new Set([
  'index',
  'block',
  'field',
  'role',
  'path',
  'found',
  'raw',
  'provider_name',
  'model',
  'item',
  'position',
  'param',
  'member',
  // The offending value a forbid rule found (a string as it is, anything else as JSON): "The thinking budget (52428)".
  'value',
  // Filled by the request-schema judge for a failure of one keyword class (request.keywordRejections).
  'found_type',
  'expected',
  'allowed_and',
  'allowed_or',
  'allowed_list',
  'limit',
  'proto_path',
  'enum_type',
  // Filled by message rules (messageRules): the offending tool call ids, how many were found against a cap, the
  // earlier item of a pair out of turn, the name beside an object that lacks a member (`lacks.name`).
  'id',
  'count',
  'max',
  'before',
  'name',
]);

function placeholdersIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(/\{([a-z_]+)\}/g)) out.add(m[1]!);
  else if (Array.isArray(value)) value.forEach((v) => placeholdersIn(v, out));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => placeholdersIn(v, out));
  return out;
}

function closesSomewhere(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(closesSomewhere);
  if (schema === null || typeof schema !== 'object') return false;
  const record = schema as Record<string, unknown>;
  return record.additionalProperties === false || Object.values(record).some(closesSomewhere);
}

/**
 * The spec lint: every way a provider says no cites where that is shown, every closed schema cites
 * the source that shows it closed, every contested rule cites the other side, and every name a
 * rule refers to exists. The JSON Schema checks shapes; this checks the evidence and the wiring.
 */
export function lintProviderSpec(spec: ProviderSpec): SpecLintProblem[] {
  const problems: SpecLintProblem[] = [];
  const add = (pointer: string, problem: string, hint: string) => problems.push({ pointer, problem, hint });

  const checkRejection = (pointer: string, rejection: Rejection) => {
    if (!rejection.sources || rejection.sources.length === 0) {
      add(
        `${pointer}/sources`,
        'a rejection without a source',
        'cite the public report or doc that shows this status and wording; mark unpublished wording "wording": "unknown" and still cite what shows the provider refuses',
      );
    }
    for (const name of placeholdersIn(rejection.body)) {
      if (!KNOWN_PLACEHOLDERS.has(name))
        add(
          `${pointer}/body`,
          `placeholder {${name}} is never filled by a mock`,
          `use one of ${[...KNOWN_PLACEHOLDERS].map((p) => `{${p}}`).join(', ')}`,
        );
    }
    if (rejection.contested) checkContested(`${pointer}/contested`, rejection.contested, rejection.sources ?? []);
  };
  const checkContested = (
    pointer: string,
    contested: { sources: string[]; recordedAcceptance?: string[] },
    own: readonly string[],
  ) => {
    if (contested.sources.length === 0)
      add(`${pointer}/sources`, 'a contested rule without the other side', 'cite the source that disagrees');
    else if (contested.sources.every((s) => own.includes(s)))
      add(
        `${pointer}/sources`,
        "the contested sources are the rule's own sources",
        'cite the source that disagrees with the rule, beside the ones that support it',
      );
    // A recorded acceptance decides the answer even under --strict, so it must be one of the sources the warning cites.
    (contested.recordedAcceptance ?? []).forEach((url, i) => {
      if (!contested.sources.includes(url))
        add(
          `${pointer}/recordedAcceptance/${i}`,
          'a recorded acceptance that is not among the contested sources',
          'list the recording under sources too',
        );
    });
  };

  const ids = new Set(Object.keys(spec.rejections));
  const allIds = new Set([...ids, ...(spec.models?.variants ?? []).flatMap((v) => Object.keys(v.rejections ?? {}))]);
  const needs = (pointer: string, id: string | undefined, pool = allIds) => {
    if (id !== undefined && !pool.has(id))
      add(
        pointer,
        `names rejection "${id}", which is not defined`,
        `define it under /rejections or use one of: ${[...pool].join(', ') || '(none defined)'}`,
      );
  };

  for (const [id, rejection] of Object.entries(spec.rejections)) checkRejection(`/rejections/${id}`, rejection);
  needs('/request/unknownFieldRejection', spec.request.unknownFieldRejection, ids);
  needs('/request/unknownTopLevelRejection', spec.request.unknownTopLevelRejection, ids);
  for (const [path, id] of Object.entries(spec.request.unknownMemberRejections ?? {}))
    needs(`/request/unknownMemberRejections/${path.replaceAll('~', '~0').replaceAll('/', '~1')}`, id, ids);
  needs('/request/invalidRejection', spec.request.invalidRejection, ids);
  needs('/request/missingModelRejection', spec.request.missingModelRejection, ids);
  needs('/request/missingFieldRejection', spec.request.missingFieldRejection, ids);
  needs('/request/nullMemberRejection', spec.request.nullMemberRejection, ids);
  needs('/request/upstreamEnvelope', spec.request.upstreamEnvelope, ids);
  for (const [cls, id] of Object.entries(spec.request.keywordRejections ?? {}))
    needs(`/request/keywordRejections/${cls}`, id, ids);

  const checkEcho = (pointer: string, echo: ProviderSpec['echo']) =>
    echo.forEach((rule, i) => {
      needs(`${pointer}/${i}/rejection`, rule.rejection);
      if (rule.level === 'required') {
        if (!rule.rejection)
          add(
            `${pointer}/${i}`,
            `a required echo of ${rule.field} without a rejection`,
            'name the rejection the provider answers when the echo is missing, or make the rule "recommended"',
          );
        if (!rule.source)
          add(
            `${pointer}/${i}/source`,
            `a required echo of ${rule.field} without a source`,
            'cite the doc or report that shows the provider refuses a request without it',
          );
      }
      if (rule.contested) checkContested(`${pointer}/${i}/contested`, rule.contested, rule.source ? [rule.source] : []);
      if (rule.emptyContested)
        checkContested(`${pointer}/${i}/emptyContested`, rule.emptyContested, rule.source ? [rule.source] : []);
    });
  checkEcho('/echo', spec.echo);
  (spec.forbid ?? []).forEach((f, i) => {
    needs(`/forbid/${i}/rejection`, f.rejection);
    if (f.contested) checkContested(`/forbid/${i}/contested`, f.contested, spec.rejections[f.rejection]?.sources ?? []);
  });

  const checkMessageRules = (
    pointer: string,
    rules: ProviderSpec['messageRules'],
    own: Record<string, Rejection> = spec.rejections,
  ) =>
    (rules ?? []).forEach((r, i) => {
      needs(`${pointer}/${i}/rejection`, r.rejection);
      if (r.contested)
        checkContested(
          `${pointer}/${i}/contested`,
          r.contested,
          (own[r.rejection] ?? spec.rejections[r.rejection])?.sources ?? [],
        );
    });
  checkMessageRules('/messageRules', spec.messageRules);

  if (spec.models?.serves !== undefined) {
    const bad = badRegExp(spec.models.serves);
    if (bad)
      add(
        '/models/serves',
        `not a regular expression: ${bad}`,
        'write a JavaScript regular expression on the model id',
      );
  }
  // A refused model or path is answered before any variant applies: its rejections are the spec's own.
  (spec.models?.refuses ?? []).forEach((entry, i) => {
    const at = `/models/refuses/${i}`;
    const bad = badRegExp(entry.match);
    if (bad)
      add(`${at}/match`, `not a regular expression: ${bad}`, 'write a JavaScript regular expression on the model id');
    needs(`${at}/rejection`, entry.rejection, ids);
    needs(`${at}/streamRejection`, entry.streamRejection, ids);
  });
  (spec.endpoint.unserved ?? []).forEach((entry, i) =>
    needs(`/endpoint/unserved/${i}/rejection`, entry.rejection, ids),
  );
  (spec.models?.variants ?? []).forEach((variant, v) => {
    const at = `/models/variants/${v}`;
    const bad = badRegExp(variant.match);
    if (bad)
      add(`${at}/match`, `not a regular expression: ${bad}`, 'write a JavaScript regular expression on the model id');
    for (const [id, rejection] of Object.entries(variant.rejections ?? {}))
      checkRejection(`${at}/rejections/${id}`, rejection);
    (variant.without ?? []).forEach((id, i) => needs(`${at}/without/${i}`, id, ids));
    if (variant.echo) checkEcho(`${at}/echo`, variant.echo);
    (variant.forbid ?? []).forEach((f, i) => needs(`${at}/forbid/${i}/rejection`, f.rejection));
    checkMessageRules(`${at}/messageRules`, variant.messageRules, variant.rejections);
    if (!bad) {
      (variant.examples ?? []).forEach((model, i) => {
        if (!new RegExp(variant.match).test(model))
          add(
            `${at}/examples/${i}`,
            `the example model "${model}" does not match the variant's own match`,
            'fix the example, or widen match',
          );
      });
    }
  });
  for (const [key, parameter] of Object.entries(spec.parameters ?? {}))
    needs(`/parameters/${key}/refusedBy`, parameter.refusedBy);

  if (closesSomewhere(spec.request.schema)) {
    const unknownIds = [
      spec.request.unknownFieldRejection,
      spec.request.unknownTopLevelRejection,
      ...Object.entries(spec.rejections)
        .filter(([, r]) => r.kind === 'unknown-field')
        .map(([id]) => id),
    ];
    const cited = unknownIds.some((id) => id !== undefined && (spec.rejections[id]?.sources.length ?? 0) > 0);
    if (!cited)
      add(
        '/request/schema',
        'the schema is closed (additionalProperties: false) but no unknown-field rejection cites a source showing the provider closes it',
        'define request.unknownFieldRejection with the source that shows the provider refusing an unknown field, or leave the schema open',
      );
  }

  (spec.upstreams ?? []).forEach((up, u) => {
    const at = `/upstreams/${u}`;
    const bad = badRegExp(up.models);
    if (bad)
      add(`${at}/models`, `not a regular expression: ${bad}`, 'write a JavaScript regular expression on the model id');
    if (!spec.request.upstreamEnvelope)
      add(
        '/request/upstreamEnvelope',
        'upstreams are listed but no envelope wraps their errors',
        'name the rejection whose body holds {raw} and {provider_name}',
      );
    for (const [from, to] of Object.entries(up.ownRejections ?? {})) needs(`${at}/ownRejections/${from}`, to, ids);
    for (const [check, contested] of Object.entries(up.contested ?? {}))
      if (contested) checkContested(`${at}/contested/${check}`, contested, up.sources);
  });
  problems.push(...lintModelCatalogue(spec));
  problems.push(...lintParameterTable(spec));
  return problems;
}

/** Cross-spec lint: every upstream a gateway names is a spec in the same set. */
export function lintProviderSpecSet(specs: readonly ProviderSpec[]): Array<SpecLintProblem & { id: string }> {
  const ids = new Set(specs.map((s) => s.id));
  return specs.flatMap((spec) =>
    (spec.upstreams ?? []).flatMap((up, u) =>
      ids.has(up.provider)
        ? []
        : [
            {
              id: spec.id,
              pointer: `/upstreams/${u}/provider`,
              problem: `names provider spec "${up.provider}", which does not exist`,
              hint: `use one of: ${[...ids].join(', ')}`,
            },
          ],
    ),
  );
}
