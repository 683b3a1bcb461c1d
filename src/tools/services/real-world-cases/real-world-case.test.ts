import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { specsDir } from '../../../shared/project-root.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { schemaValidator } from '../../../shared/validation/validate.js';
import {
  DATE_BASES,
  datedCases,
  formatDatedCases,
  type DateBasis,
  type LoadedCase,
  type RealWorldCase,
} from './real-world-case.js';

/** A minimal valid case: nothing here comes from the corpus, so the checks hold whatever the corpus holds. */
const base: RealWorldCase = {
  id: 'x',
  ruleClass: 'reasoning-echo',
  source: { url: 'https://example.com/1', kind: 'bug-report' },
  framework: 'f',
  provider: 'p',
  model: 'm',
  request: { body: {} },
  outcome: { accepted: true },
};
const loaded = (c: Partial<RealWorldCase>, id: string): LoadedCase => ({
  case: { ...base, ...c, id },
  path: `specs/real-world/${id}.json`,
});

describe('dateBasis in the schema', () => {
  const validate = schemaValidator('real-world-case.schema.json');

  it.each([
    ['neither', {}, true],
    ['a date with its basis', { date: '2026-09-12', dateBasis: 'read' }, true],
    ['a date without a basis', { date: '2026-09-12' }, false],
    ['a basis without a date', { dateBasis: 'published' }, false],
    ['a basis the schema does not name', { date: '2026-09-12', dateBasis: 'guessed' }, false],
  ])('%s: valid is %s', (_name, extra, valid) => {
    expect(validate({ ...base, ...extra })).toBe(valid);
  });

  it('names the same bases, in the same order, as the TypeScript list', () => {
    const schema = readJsonFile(join(specsDir(), 'schema', 'real-world-case.schema.json')) as {
      properties: { dateBasis: { enum: string[] } };
    };
    expect([...DATE_BASES]).toEqual(schema.properties.dateBasis.enum);
  });
});

describe('datedCases', () => {
  it('counts each basis and names the undated cases, in corpus order', () => {
    const cases = [
      loaded({ date: '2026-01-02', dateBasis: 'published' }, 'a'),
      loaded({}, 'b'),
      loaded({ date: '2026-03-04', dateBasis: 'read' }, 'c'),
      loaded({ date: '2025-11-12', dateBasis: 'committed' }, 'd'),
      loaded({ date: '2026-05-06', dateBasis: 'published' }, 'e'),
      // Built in code (not through the schema), a date without a basis says nothing checkable: undated.
      loaded({ date: '2026-05-06' }, 'f'),
    ];
    expect(datedCases(cases)).toEqual({
      dated: 4,
      byBasis: { published: 2, recorded: 0, committed: 1, 'page-updated': 0, read: 1 },
      undated: ['b', 'f'],
    });
  });

  const dating = fc.option(
    fc.record({
      date: fc.constantFrom('2025-06-11', '2026-12-07'),
      dateBasis: fc.constantFrom<DateBasis>(...DATE_BASES),
    }),
    { nil: undefined },
  );
  test('every case is counted once: under its basis when dated, by id when not', () => {
    fc.assert(
      fc.property(fc.array(dating, { maxLength: 40 }), (datings) => {
        const cases = datings.map((d, i) => loaded(d ?? {}, `c${i}`));
        const counts = datedCases(cases);
        const undatedIds = datings.flatMap((d, i) => (d === undefined ? [`c${i}`] : []));
        expect(counts.undated).toEqual(undatedIds);
        expect(counts.dated).toBe(datings.length - undatedIds.length);
        for (const basis of DATE_BASES)
          expect(counts.byBasis[basis]).toBe(datings.filter((d) => d?.dateBasis === basis).length);
      }),
    );
  });
});

describe('formatDatedCases', () => {
  it('prints each basis that has a case, in the schema order, then the undated count', () => {
    const counts = {
      dated: 5,
      byBasis: { published: 3, recorded: 0, committed: 0, 'page-updated': 0, read: 2 },
      undated: ['u1', 'u2'],
    };
    expect(formatDatedCases(7, counts)).toBe('5/7 (published 3, read 2; 2 without a date)');
  });

  it('says so when no case is dated', () => {
    const none = { published: 0, recorded: 0, committed: 0, 'page-updated': 0, read: 0 };
    expect(formatDatedCases(1, { dated: 0, byBasis: none, undated: ['u'] })).toBe('0/1 (1 without a date)');
  });
});
