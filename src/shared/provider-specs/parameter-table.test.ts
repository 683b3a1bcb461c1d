import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InputError } from '../errors/input-error.js';
import { defaultProvidersDir, loadProviderSpec, loadProviderSpecs } from './load-provider-specs.js';
import { lintParameterTable, parameterCoverage, parameterForbids } from './parameter-table.js';
import type { ParameterRow, ProviderSpec } from './provider-spec.js';
import { judgeAsTheMock } from '../../provider/handlers/judge-request.js';

const dir = mkdtempSync(join(tmpdir(), 'parameter-table-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- edited freely to break it
function bundled(id: string): Record<string, any> {
  return JSON.parse(readFileSync(join(defaultProvidersDir(), `${id}.json`), 'utf8'));
}

function writeEdited(id: string, edit: (spec: ReturnType<typeof bundled>) => void): string {
  const spec = bundled(id);
  edit(spec);
  const file = join(dir, `${id}.json`);
  writeFileSync(file, JSON.stringify(spec, null, 2));
  return file;
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
const spec = (id: string) => specs.find((s) => s.id === id)!;

/**
 * A spec holding only these rows, on the bundled OpenAI spec (its rejections and catalogue), with an open request
 * schema and no family judge, so that only the rows can refuse.
 */
function withRows(rows: ParameterRow[], documented = ['effort'] as const): ProviderSpec {
  const base = spec('openai');
  return {
    ...base,
    family: 'no-family-judge' as ProviderSpec['family'],
    request: { schema: { type: 'object' } },
    forbid: [],
    models: {
      ...base.models,
      variants: [],
      parameters: {
        documented: documented.map((parameter) => ({ parameter, pointer: '/x', sources: ['https://example.org'] })),
        rows,
      },
    },
  };
}

const chat = (model: string, extra: Record<string, unknown>) => ({
  model,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});
const refused = (s: ProviderSpec, body: object) => judgeAsTheMock(s, body).filter((f) => !f.lenient);

const EFFORT_ROW: ParameterRow = {
  parameter: 'effort',
  models: '^gpt-5\\.6-luna',
  pointer: '/reasoning_effort',
  accepts: ['none', 'low', 'medium', 'high', 'xhigh'],
  rejection: 'effort-unsupported-gpt-5-6-luna',
  sources: ['https://github.com/livekit/agents/pull/7169'],
  observed: '2026-09-08',
};

describe('parameter rows as the mock reads them', () => {
  it('a value outside what the family accepts is refused with the row rejection; listed values and other models pass', () => {
    const s = withRows([EFFORT_ROW]);
    const values = fc.oneof(fc.constantFrom('none', 'low', 'medium', 'high', 'xhigh', 'minimal', 'max'), fc.string());
    fc.assert(
      fc.property(values, fc.constantFrom('gpt-5.6-luna', 'gpt-5.6-luna-2026-09-01', 'gpt-5.6-sol'), (value, model) => {
        const findings = refused(s, chat(model, { reasoning_effort: value }));
        const expected = model.startsWith('gpt-5.6-luna') && !EFFORT_ROW.accepts!.includes(value);
        expect(findings.map((f) => f.rejection)).toEqual(expected ? ['effort-unsupported-gpt-5-6-luna'] : []);
      }),
    );
    expect(refused(s, chat('gpt-5.6-luna', {}))).toEqual([]);
  });

  it("the refusal carries the provider's wording with the offending value", () => {
    const [finding] = refused(spec('openai'), chat('gpt-5.6-luna', { reasoning_effort: 'minimal' }));
    expect(finding?.rejection).toBe('effort-unsupported-gpt-5-6-luna');
    expect(finding?.params?.value).toBe('minimal');
  });

  it('refuses, atLeast and atMost each refuse on their own; whenBody narrows the row', () => {
    const rows: ParameterRow[] = [
      { ...EFFORT_ROW, accepts: undefined, refuses: ['none'], models: '^m1$' },
      {
        ...EFFORT_ROW,
        accepts: undefined,
        models: '^m2$',
        pointer: '/budget',
        atLeast: 1,
        atMost: 10,
        whenBody: [{ pointer: '/thinking', equals: true }],
      },
    ];
    const s = withRows(rows);
    expect(refused(s, chat('m1', { reasoning_effort: 'none' }))).toHaveLength(1);
    expect(refused(s, chat('m1', { reasoning_effort: 'low' }))).toEqual([]);
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.boolean(), (budget, thinking) => {
        const out = refused(s, chat('m2', { budget, thinking }));
        expect(out.length > 0).toBe(thinking && (budget < 1 || budget > 10));
      }),
    );
  });

  it('an empty accepts refuses the parameter whatever its value; a row without a rejection refuses nothing', () => {
    const s = withRows([
      { ...EFFORT_ROW, models: '^none-taken$', accepts: [] },
      { ...EFFORT_ROW, models: '^docs-only$', rejection: undefined },
    ]);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(refused(s, chat('none-taken', { reasoning_effort: value }))).toHaveLength(value === undefined ? 0 : 1);
        expect(refused(s, chat('docs-only', { reasoning_effort: value }))).toEqual([]);
      }),
    );
  });

  it('compiles each row to forbids scoped to its models, and nothing from knownNone rows', () => {
    const forbids = parameterForbids(
      withRows([
        { ...EFFORT_ROW, pointer: '/a~1b/c', refuses: ['x'] },
        { parameter: 'effort', models: '^z', observed: '2026-12-07', knownNone: 'no source' },
      ]),
    );
    expect(forbids.map((f) => [f.path, f.models, f.whenBody?.[0]])).toEqual([
      ['a/b.c', '^gpt-5\\.6-luna', { pointer: '/a~1b/c', notIn: EFFORT_ROW.accepts }],
      ['a/b.c', '^gpt-5\\.6-luna', { pointer: '/a~1b/c', in: ['x'] }],
    ]);
  });
});

describe('the parameter table lint and loader', () => {
  it('names a bad regular expression, an undefined rejection and an undocumented parameter', () => {
    const s = withRows([
      { ...EFFORT_ROW, models: '(' },
      { ...EFFORT_ROW, rejection: 'no-such-rejection' },
      { ...EFFORT_ROW, parameter: 'budget' },
    ]);
    expect(lintParameterTable(s).map((p) => p.pointer)).toEqual([
      '/models/parameters/rows/0/models',
      '/models/parameters/rows/1/rejection',
      '/models/parameters/rows/2/parameter',
    ]);
  });

  it('the loader ends a broken row with file, pointer and hint', () => {
    const file = writeEdited('openai', (s) => {
      s.models.parameters.rows[0].rejection = 'no-such-rejection';
    });
    const err = inputErrorOf(() => loadProviderSpec(file));
    expect(err.file).toBe(file);
    expect(err.pointer).toBe('/models/parameters/rows/0/rejection');
    expect(err.hint).toMatch(/define it under \/rejections/);
  });

  it('the schema refuses a row that is neither sourced nor a stated reason, and a reason with a rejection', () => {
    const noSource = writeEdited('openai', (s) => {
      delete s.models.parameters.rows[0].sources;
    });
    expect(inputErrorOf(() => loadProviderSpec(noSource)).pointer).toMatch(/^\/models\/parameters\/rows\/0/);
    const both = writeEdited('openai', (s) => {
      s.models.parameters.rows[0].knownNone = 'no source';
    });
    expect(inputErrorOf(() => loadProviderSpec(both)).pointer).toMatch(/^\/models\/parameters\/rows\/0/);
  });
});

describe('coverage of the catalogue', () => {
  it('a reasoning model is sourced, known none (with its reason) or missing per documented parameter', () => {
    const s = withRows(
      [
        { ...EFFORT_ROW, models: '^gpt-5\\.5' },
        { parameter: 'effort', models: '^gpt-5\\.4', observed: '2026-12-07', knownNone: 'no source says' },
      ],
      ['effort'],
    );
    const cells = parameterCoverage(s);
    const state = (model: string) => cells.find((c) => c.model === model);
    expect(state('gpt-5.5')?.state).toBe('sourced');
    expect(state('gpt-5.5-pro')?.state).toBe('sourced');
    expect(state('gpt-5.4')).toEqual({
      model: 'gpt-5.4',
      parameter: 'effort',
      state: 'known-none',
      reason: 'no source says',
    });
    expect(state('gpt-5')?.state).toBe('missing');
    // Models that never reason are not counted.
    expect(cells.map((c) => c.model)).not.toContain('gpt-4.1');
  });
});
