import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { STANDARD_CARRIER_FIELDS } from '../../shared/history/history.js';
import {
  aSetOfFieldsTheProviderReads,
  PROPERTY_RUNS,
  PROPERTY_TIMEOUT_MS,
} from '../../../test/helpers/history-arbitraries.test-helper.js';
import { detectUnknownField, widen } from './detect-unknown-field.js';
import { defaultUnknownFieldPhrasings } from './unknown-field-phrasings.js';

const phrasings = defaultUnknownFieldPhrasings().phrasings.map((p) => p.match);
const aTier = fc.constantFrom('standard' as const, 'strict' as const, 'must-echo' as const);
const aFieldNamedOnAMessagesPath = fc
  .tuple(fc.constantFrom(...STANDARD_CARRIER_FIELDS), fc.nat(60))
  .map(([field, i]) => ({ field, path: `messages[${i}].${field}` }));
const aNoise = fc.string({ maxLength: 30 }).filter((s) => !/reasoning/i.test(s));

describe('detectUnknownField (property)', () => {
  test(
    'a named, sent carrier in a real phrasing is widened; never reasoning_content on must-echo; never a field that was not sent or already withheld',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...phrasings),
          aFieldNamedOnAMessagesPath,
          aSetOfFieldsTheProviderReads,
          aTier,
          fc.integer({ min: 400, max: 499 }),
          aNoise,
          aNoise,
          (phrase, { field, path }, sent, tier, status, before, after) => {
            const body = { error: { message: `${before}${path}: ${phrase}${after}` } };
            const got = detectUnknownField(status, body, sent, tier);
            const counts = sent.includes(field) && !(tier === 'must-echo' && field === 'reasoning_content');
            if (!counts) expect(got).toBeNull();
            else
              expect(got).toEqual(widen([field]).filter((f) => !(tier === 'must-echo' && f === 'reasoning_content')));
            if (tier === 'must-echo') expect(got ?? []).not.toContain('reasoning_content');
            // The fields it returns are withheld next time: the same body then names nothing that was sent.
            if (got)
              expect(
                detectUnknownField(
                  status,
                  body,
                  sent.filter((f) => !got.includes(f)),
                  tier,
                ),
              ).toBeNull();
          },
        ),
        { numRuns: PROPERTY_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  test(
    'nothing outside 4xx counts, and no body without an unknown-field phrasing counts',
    () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 100, max: 599 }), aTier, (text, status, tier) => {
          const all = [...STANDARD_CARRIER_FIELDS];
          if (status < 400 || status > 499)
            expect(detectUnknownField(status, `${text} reasoning_content is unsupported`, all, tier)).toBeNull();
          if (!phrasings.some((p) => text.toLowerCase().includes(p)))
            expect(detectUnknownField(400, `${text} messages[1].reasoning_content`, all, tier)).toBeNull();
        }),
        { numRuns: PROPERTY_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
