import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { IsoClock } from './iso-clock.js';

describe('the log clock', () => {
  test('gives, at every reading, the ISO time of that very millisecond, however readings repeat or jump', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4_102_444_800_000 }), { minLength: 1, maxLength: 30 }),
        (readings) => {
          const steps = readings.flatMap((ms) => [ms, ms, ms + 1]);
          let i = 0;
          const clock = new IsoClock(() => steps[i]!);
          for (; i < steps.length; i++) expect(clock.now()).toBe(new Date(steps[i]!).toISOString());
        },
      ),
    );
  });
});
